import { MemoryCreate, MemoryListQuery, MemoryPatch, MemorySearchQuery } from "@coffer/protocol";
import { Hono } from "hono";
import { toFactOut } from "../../application/vault/memory.js";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody, queryParams } from "../validate.js";

export function memoryRoutes({ vault }: HttpDeps): Hono<Env> {
  const { memory } = vault;
  return new Hono<Env>()
    .get("/memory", (c) => c.json(memory.list(queryParams(c, MemoryListQuery))))
    .post("/memory", async (c) => c.json(memory.create(await jsonBody(c, MemoryCreate)), 201))
    .get("/memory/search", (c) => {
      const q = queryParams(c, MemorySearchQuery);
      return c.json(memory.recall({ query: q.q, scope: q.scope, project: q.project, topK: q.top_k, mode: q.mode }));
    })
    .get("/memory/:id", (c) => c.json(toFactOut(memory.get(c.req.param("id")))))
    .patch("/memory/:id", async (c) => c.json(toFactOut(memory.update(c.req.param("id"), await jsonBody(c, MemoryPatch)))))
    .delete("/memory/:id", (c) => {
      memory.forget(c.req.param("id"));
      return c.body(null, 204);
    });
}

import { ConnectionCreate, ConnectionPatch } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody } from "../validate.js";

export function connectionRoutes({ settings }: HttpDeps): Hono<Env> {
  const { connections } = settings;
  return new Hono<Env>()
    .get("/connections/wires", (c) => c.json(connections.wireList()))
    .get("/connections", (c) => c.json(connections.list()))
    .post("/connections", async (c) => c.json(connections.create(await jsonBody(c, ConnectionCreate)), 201))
    .get("/connections/:id", (c) => c.json(connections.get(c.req.param("id"))))
    .patch("/connections/:id", async (c) => c.json(connections.update(c.req.param("id"), await jsonBody(c, ConnectionPatch))))
    .delete("/connections/:id", (c) => {
      connections.remove(c.req.param("id"));
      return c.body(null, 204);
    })
    .post("/connections/:id/internal-default", (c) => c.json(connections.makeInternalDefault(c.req.param("id"))));
}

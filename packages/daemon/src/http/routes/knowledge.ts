import { KnowledgeBaseCreate, KnowledgeBasePatch, KnowledgeImportIn, KnowledgeSearchQuery } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody, queryParams } from "../validate.js";

export function knowledgeRoutes({ vault }: HttpDeps): Hono<Env> {
  const { knowledge } = vault;
  return new Hono<Env>()
    .get("/knowledge", (c) => c.json(knowledge.list()))
    .post("/knowledge", async (c) => c.json(knowledge.create(await jsonBody(c, KnowledgeBaseCreate)), 201))
    .get("/knowledge/search", (c) => {
      const q = queryParams(c, KnowledgeSearchQuery);
      return c.json(knowledge.search(q.q, q.kb, q.top_k));
    })
    .get("/knowledge/imports/:job", (c) => c.json(knowledge.importJob(c.req.param("job"))))
    .get("/knowledge/documents/:doc", (c) => c.json(knowledge.document(c.req.param("doc"))))
    .delete("/knowledge/documents/:doc", (c) => {
      knowledge.deleteDocument(c.req.param("doc"));
      return c.body(null, 204);
    })
    .get("/knowledge/:kb", (c) => c.json(knowledge.get(c.req.param("kb"))))
    .patch("/knowledge/:kb", async (c) => c.json(knowledge.patch(c.req.param("kb"), await jsonBody(c, KnowledgeBasePatch))))
    .delete("/knowledge/:kb", (c) => {
      knowledge.delete(c.req.param("kb"));
      return c.body(null, 204);
    })
    .get("/knowledge/:kb/documents", (c) => c.json(knowledge.documents(c.req.param("kb"))))
    .post("/knowledge/:kb/imports", async (c) => {
      const { path } = await jsonBody(c, KnowledgeImportIn);
      return c.json(await knowledge.startImport(c.req.param("kb"), path), 202);
    });
}

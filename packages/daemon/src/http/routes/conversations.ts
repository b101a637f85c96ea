import {
  AgentConfigPatch,
  ConversationCreate,
  ConversationListQuery,
  ConversationPatch,
} from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody, queryParams } from "../validate.js";

export function conversationRoutes({ conversations }: HttpDeps): Hono<Env> {
  return new Hono<Env>()
    .get("/chat/conversations", (c) => c.json(conversations.list(queryParams(c, ConversationListQuery))))
    .post("/chat/conversations", async (c) => c.json(await conversations.create(await jsonBody(c, ConversationCreate)), 201))
    .get("/chat/conversations/:id", (c) => c.json(conversations.get(c.req.param("id"))))
    .patch("/chat/conversations/:id", async (c) => {
      const { title } = await jsonBody(c, ConversationPatch);
      return c.json(conversations.rename(c.req.param("id"), title));
    })
    .delete("/chat/conversations/:id", async (c) => {
      await conversations.delete(c.req.param("id"));
      return c.body(null, 204);
    })
    .post("/chat/conversations/:id/archive", (c) => c.json(conversations.archive(c.req.param("id"))))
    .post("/chat/conversations/:id/unarchive", (c) => c.json(conversations.unarchive(c.req.param("id"))))
    .get("/chat/conversations/:id/agent-config", (c) => c.json(conversations.agentConfig(c.req.param("id"))))
    .patch("/chat/conversations/:id/agent-config", async (c) =>
      c.json(conversations.patchAgentConfig(c.req.param("id"), await jsonBody(c, AgentConfigPatch))),
    );
}

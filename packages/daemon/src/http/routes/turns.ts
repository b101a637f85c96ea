import { MessageListQuery, PendingQueueIn, SendMessageRequest } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody, queryParams } from "../validate.js";

export function turnRoutes({ conversations, engine }: HttpDeps): Hono<Env> {
  return new Hono<Env>()
    .get("/chat/conversations/:id/messages", (c) =>
      c.json(conversations.messages(c.req.param("id"), queryParams(c, MessageListQuery))),
    )
    .post("/chat/conversations/:id/messages", async (c) => {
      const { text, client_id } = await jsonBody(c, SendMessageRequest);
      return c.json(await engine.send(c.req.param("id"), text, client_id), 202);
    })
    .get("/chat/conversations/:id/pending", (c) => c.json(engine.pending(c.req.param("id"))))
    .put("/chat/conversations/:id/pending", async (c) => {
      const { pending, resume, seen } = await jsonBody(c, PendingQueueIn);
      return c.json(await engine.setPending(c.req.param("id"), pending, resume ?? true, seen));
    })
    .post("/chat/conversations/:id/interrupt", async (c) => {
      await engine.interrupt(c.req.param("id"));
      return c.body(null, 204);
    });
}

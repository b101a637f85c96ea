import { ROUTES } from "@coffer/protocol";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context } from "hono";
import type { RouteBinder } from "../bind-route.js";
import type { Env, HttpDeps } from "../deps.js";
import { encodeEvent, encodeFrame, SseStream } from "../sse.js";

/** The two live streams: one conversation's bus, and the conversation list (raw: they write to the socket). */
export function liveRoutes(bind: RouteBinder, { conversations, turns, listEvents, heartbeatMs }: HttpDeps): void {
  bind
    .raw(ROUTES.conversationEvents, (c) => {
      const id = c.req.param("id") ?? "";
      conversations.get(id); // 404 as JSON, before the stream opens
      if (c.req.method === "HEAD") return headOnly(c);
      const cursor = c.req.header("last-event-id") ?? c.req.query("after");
      const stream = new SseStream(c.env.outgoing, heartbeatMs);
      const detach = turns.reads.subscribe(
        id,
        { deliver: (frame) => stream.write(encodeFrame(frame)), end: () => stream.end() },
        cursor || undefined,
      );
      stream.onClose(detach);
      return RESPONSE_ALREADY_SENT;
    })
    .raw(ROUTES.conversationListEvents, (c) => {
      if (c.req.method === "HEAD") return headOnly(c);
      const stream = new SseStream(c.env.outgoing, heartbeatMs);
      stream.onClose(listEvents.listen((event) => stream.write(encodeEvent(event))));
      return RESPONSE_ALREADY_SENT;
    });
}

/**
 * Hono answers HEAD with the GET handler and then rewrites the response, which would
 * write headers twice on a stream we already opened on the socket: answer HEAD ourselves.
 */
function headOnly(c: Context<Env>): Response {
  return c.body(null, 200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform" });
}

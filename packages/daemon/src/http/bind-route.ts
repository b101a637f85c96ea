import {
  successOf,
  type RouteBodyOut,
  type RouteParams,
  type RouteQueryOut,
  type RouteReply,
  type RouteSpec,
} from "@coffer/protocol";
import type { Context, Hono } from "hono";
import type { Env } from "./deps.js";
import { jsonBody, queryParams } from "./validate.js";
import { RESOURCE_HEADERS } from "./middleware/secure-headers.js";

export interface RouteRequest<R extends RouteSpec> {
  readonly params: RouteParams<R>;
  readonly query: RouteQueryOut<R>;
  readonly body: RouteBodyOut<R>;
  readonly c: Context<Env>;
}

/**
 * Binds handlers to the protocol's ROUTES entries, never to a hand-written path
 * (docs/decisions.md, "Wire contract"). `route` validates the query and body with the spec's
 * schemas (INVALID_JSON 400, VALIDATION_FAILED 422) and answers with the spec's success status;
 * `raw` is for the handlers that write their own answer (the SSE streams, the session exchange).
 */
export interface RouteBinder {
  route<R extends RouteSpec>(spec: R, handler: (req: RouteRequest<R>) => RouteReply<R> | Promise<RouteReply<R>>): RouteBinder;
  raw<R extends RouteSpec>(spec: R, handler: (c: Context<Env>) => Response | Promise<Response>): RouteBinder;
}

/** `/chat/conversations/{id}` → Hono's `/chat/conversations/:id`. */
export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/** A JSON answer's text as it may leave the daemon (SecretScrubber.scrub; the identity when nothing is known). */
export type ScrubText = (text: string) => string;

/** With the strict headers secureHeaders would otherwise set on it afterwards (the `secured` mark). */
const JSON_HEADERS = { "content-type": "application/json", ...RESOURCE_HEADERS } as const;

/**
 * The JSON answer, serialised once and scrubbed as text before it becomes a response: the
 * scrubResponses middleware would otherwise turn every answer back into a stream, read it and
 * build it again whenever a credential is known (docs/decisions.md, "The route's own cost").
 */
function jsonAnswer(c: Context<Env>, result: unknown, status: number, scrub: ScrubText): Response {
  c.set("scrubbed", true);
  c.set("secured", true);
  return c.body(scrub(JSON.stringify(result)), status as 200, JSON_HEADERS);
}

export function routeBinder(app: Hono<Env>, scrub: ScrubText = (text) => text): RouteBinder {
  const binder: RouteBinder = {
    route(spec, handler) {
      const { status, schema } = successOf(spec);
      app.on(spec.method.toUpperCase(), honoPath(spec.path), async (c) => {
        const params = c.req.param() as RouteRequest<typeof spec>["params"];
        const query = (spec.query ? queryParams(c, spec.query) : undefined) as RouteRequest<typeof spec>["query"];
        const body = (spec.body ? await jsonBody(c, spec.body) : undefined) as RouteRequest<typeof spec>["body"];
        const result = await handler({ params, query, body, c });
        if (schema === null) return c.body(null, status as 204);
        return jsonAnswer(c, result, status, scrub);
      });
      return binder;
    },
    raw(spec, handler) {
      app.on(spec.method.toUpperCase(), honoPath(spec.path), handler);
      return binder;
    },
  };
  return binder;
}

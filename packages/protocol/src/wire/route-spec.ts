import type { z } from "zod";

// Its own file so the route tables (each area's routes.ts and the top routes.ts that joins
// them) share the shape without importing each other in a circle.
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface RouteSpec {
  readonly method: HttpMethod;
  /** OpenAPI-style path under /api/v1, e.g. /chat/conversations/{id}. */
  readonly path: string;
  readonly summary: string;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** status → body schema; null = no body; "sse" = text/event-stream of the given event union. */
  readonly responses: Readonly<Record<number, z.ZodType | null | { sse: z.ZodType }>>;
  /**
   * Who may call it. Default "token": the long-lived token or a live session.
   * "none": unauthenticated (the daemon's proof). "token_or_login_code": the long-lived
   * token in a header, or a one-time login code in the body.
   */
  readonly auth?: "none" | "token_or_login_code";
  /**
   * The body limit for this route, when it is not the daemon's default (1 MiB): uploads from
   * the page carry files. Over it the daemon answers 413 UPLOAD_TOO_LARGE, and the page checks
   * the same figure before sending.
   */
  readonly maxBodyBytes?: number;
}

/** A route with its stable name (the key in ROUTES), for the array view. */
export type NamedRoute = RouteSpec & { readonly name: string };

// Types read off a route's literal spec (the tables are `as const`), so the daemon's binder and
// the typed client infer params, query, body and result from the route alone
// (docs/decisions.md, "Wire contract").

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;

/** `/memory/{id}` → `{ id: string }`; `{}` for a path without parameters. */
export type RouteParams<R extends RouteSpec> = { readonly [K in ParamNames<R["path"]>]: string };

/** The body the route accepts (as sent: the schema's input), or undefined. */
export type RouteBodyIn<R extends RouteSpec> = R extends { readonly body: infer B extends z.ZodType } ? z.input<B> : undefined;
/** The body after validation (the schema's output), or undefined. */
export type RouteBodyOut<R extends RouteSpec> = R extends { readonly body: infer B extends z.ZodType } ? z.output<B> : undefined;

/** The query after validation, or undefined. */
export type RouteQueryOut<R extends RouteSpec> = R extends { readonly query: infer Q extends z.ZodObject } ? z.output<Q> : undefined;
/** The query as a client sends it: each key of the schema, any scalar (sent as text; empty ones are left out). */
export type RouteQueryIn<R extends RouteSpec> = R extends { readonly query: infer Q extends z.ZodObject }
  ? { readonly [K in keyof z.output<Q>]?: string | number | boolean | null }
  : undefined;

type SuccessStatus<R extends RouteSpec> = Extract<keyof R["responses"], 200 | 201 | 202 | 204>;
type SuccessSchema<R extends RouteSpec> = R["responses"][SuccessStatus<R>];

/** The success body, parsed (null for a 204; never for an SSE stream, which has its own path). */
export type RouteResult<R extends RouteSpec> = SuccessSchema<R> extends z.ZodType
  ? z.output<SuccessSchema<R>>
  : SuccessSchema<R> extends null
    ? null
    : never;
/** What a handler may return for the route: the success schema's input (null/void for a 204). */
export type RouteReply<R extends RouteSpec> = SuccessSchema<R> extends z.ZodType
  ? z.input<SuccessSchema<R>>
  : SuccessSchema<R> extends null
    ? null | void
    : never;

/** The route's one success answer: its status and schema. */
export function successOf(route: RouteSpec): { status: number; schema: z.ZodType | null | { sse: z.ZodType } } {
  for (const [status, schema] of Object.entries(route.responses)) {
    const code = Number(status);
    if (code >= 200 && code < 300) return { status: code, schema };
  }
  throw new Error(`route ${route.method} ${route.path} declares no success response`);
}

/** The path with its parameters filled in, each encoded once here; plus the query, empty values left out. */
export function routePath(route: RouteSpec, params: Readonly<Record<string, string>> = {}, query?: Readonly<Record<string, unknown>>): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`route ${route.path} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== "") search.set(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

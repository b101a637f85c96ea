import type { z } from "zod";

// Its own file so the route tables (routes.ts, routes-settings.ts, routes-vault.ts) share the
// shape without importing each other in a circle.
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
}

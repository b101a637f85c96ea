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
}

import type { RouteSpec } from "@coffer/protocol";
import { honoPath } from "./bind-route.js";

/** What Hono reports for each registered handler (`app.routes`). */
export interface RegisteredRoute {
  readonly method: string;
  readonly path: string;
}

/**
 * Where the route table and the app disagree: a ROUTES entry with no handler or more than one,
 * or an /api/v1 handler no entry declares (docs/decisions.md, "Wire contract"). Middleware
 * (method ALL) and the catch-all 404 are not handlers of a route.
 */
export function routeTableMismatches(registered: readonly RegisteredRoute[], table: readonly RouteSpec[], prefix = "/api/v1"): string[] {
  const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
  const declared = new Set(table.map((r) => key(r.method, `${prefix}${honoPath(r.path)}`)));
  const bound = new Map<string, number>();
  for (const r of registered) {
    if (r.method === "ALL" || !r.path.startsWith(`${prefix}/`)) continue;
    const k = key(r.method, r.path);
    bound.set(k, (bound.get(k) ?? 0) + 1);
  }
  const problems: string[] = [];
  for (const k of declared) {
    const n = bound.get(k) ?? 0;
    if (n !== 1) problems.push(n === 0 ? `${k} is in ROUTES but has no handler` : `${k} has ${n} handlers`);
  }
  for (const k of bound.keys()) if (!declared.has(k)) problems.push(`${k} has a handler but is not in ROUTES`);
  return problems;
}

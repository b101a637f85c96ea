import { buildOpenApi, ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function systemRoutes(bind: RouteBinder, deps: HttpDeps): void {
  const openapi = buildOpenApi(deps.version);
  bind
    .route(ROUTES.health, () => ({
      status: "ok" as const,
      version: deps.version,
      pid: process.pid,
      uptime_ms: Date.now() - deps.startedAt,
    }))
    .route(ROUTES.openApi, () => openapi)
    .route(ROUTES.systemStats, () => deps.footprint.stats.read());
}

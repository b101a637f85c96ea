import { buildOpenApi, type HealthOut } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";

export function systemRoutes(deps: HttpDeps): Hono<Env> {
  const openapi = buildOpenApi(deps.version);
  return new Hono<Env>()
    .get("/health", (c) =>
      c.json({
        status: "ok",
        version: deps.version,
        pid: process.pid,
        uptime_ms: Date.now() - deps.startedAt,
      } satisfies HealthOut),
    )
    .get("/openapi.json", (c) => c.json(openapi));
}

import { ROUTE_LIST, ROUTES, type RouteSpec } from "@coffer/protocol";
import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { SecretScrubber } from "../application/secrets/secret-scrubber.js";
import { createHttpApp, ROUTE_GROUPS } from "./app.js";
import { routeBinder } from "./bind-route.js";
import type { Env, HttpDeps } from "./deps.js";
import { routeTableMismatches } from "./route-coverage.js";

/**
 * Binding only closes over the use cases; none runs while routes are registered. So the deps are
 * a stand-in whose services are never called (each request's behaviour is covered by the
 * integration suites against a real daemon). Reading a property gives another stand-in.
 */
function unusedDeps(): HttpDeps {
  const stub: object = new Proxy(() => stub, { get: (_t, key) => (key === "then" ? undefined : stub) });
  const real: Record<string, unknown> = { version: "0.0.0-test", webRoot: null, scrubber: new SecretScrubber(), heartbeatMs: 1000 };
  return new Proxy(real, { get: (t, key: string) => (key in t ? t[key] : stub) }) as unknown as HttpDeps;
}

/** The /api/v1 handlers bound by every group, on a bare Hono (no middleware). */
function boundApi(extra?: (api: Hono<Env>) => void): { method: string; path: string }[] {
  const api = new Hono<Env>();
  const bind = routeBinder(api);
  for (const mount of ROUTE_GROUPS) mount(bind, unusedDeps());
  extra?.(api);
  return api.routes.map((r) => ({ method: r.method, path: `/api/v1${r.path}` }));
}

describe("ROUTES and the daemon's handlers agree", () => {
  test("the real app binds every ROUTES entry exactly once, and nothing else under /api/v1", () => {
    const app = createHttpApp(unusedDeps());
    expect(routeTableMismatches(app.routes, ROUTE_LIST)).toEqual([]);
    // Every entry is really there (not just an empty table against an empty app).
    const handlers = app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/api/v1/"));
    expect(handlers).toHaveLength(ROUTE_LIST.length);
    expect(ROUTE_LIST.length).toBeGreaterThan(60);
  });

  test("a handler with no ROUTES entry is caught", () => {
    const registered = boundApi((api) => api.get("/ghost/:id", (c) => c.text("boo")));
    expect(routeTableMismatches(registered, ROUTE_LIST)).toEqual(["GET /api/v1/ghost/:id has a handler but is not in ROUTES"]);
  });

  test("a ROUTES entry with no handler is caught (the 401 test alone would not see it)", () => {
    const unbound: RouteSpec = { method: "get", path: "/chat/conversations/{id}/ghost", summary: "planted", responses: { 200: null } };
    expect(routeTableMismatches(boundApi(), [...ROUTE_LIST, unbound])).toEqual([
      "GET /api/v1/chat/conversations/:id/ghost is in ROUTES but has no handler",
    ]);
  });

  test("an entry dropped from the table, or bound twice, is caught", () => {
    const withoutHealth = ROUTE_LIST.filter((r) => r.name !== "health");
    expect(routeTableMismatches(boundApi(), withoutHealth)).toEqual(["GET /api/v1/health has a handler but is not in ROUTES"]);
    const twice = boundApi((api) => routeBinder(api).route(ROUTES.getConversation, () => null as never));
    expect(routeTableMismatches(twice, ROUTE_LIST)).toEqual(["GET /api/v1/chat/conversations/:id has 2 handlers"]);
  });
});

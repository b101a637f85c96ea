import { Hono, type MiddlewareHandler } from "hono";
import { httpStatusOf } from "@coffer/protocol";
import { bodyLimit } from "hono/body-limit";
import type { Env, HttpDeps } from "./deps.js";
import { ApiError, envelope, toHttpError } from "./errors.js";
import { ROUTE_LIST } from "@coffer/protocol";
import { routeBinder, type RouteBinder } from "./bind-route.js";
import { routeTableMismatches } from "./route-coverage.js";
import { secureHeaders } from "./middleware/secure-headers.js";
import { gatewayPrincipal } from "./middleware/gateway-auth.js";
import { scrubResponses } from "./middleware/scrub-responses.js";
import { hostGuard, originGuard, requireAuth, tokenPrincipal } from "./middleware/security.js";
import type { Principal } from "../application/auth/principal.js";
import { urlGuard } from "./middleware/url-guard.js";
import { authRoutes } from "./routes/auth.js";
import { attachmentRoutes } from "./routes/attachments.js";
import { transcriptionRoutes } from "./routes/transcriptions.js";
import { scheduleRoutes } from "./routes/schedules.js";
import { agentRoutes } from "./routes/agents.js";
import { auditRoutes } from "./routes/audit.js";
import { channelRoutes } from "./routes/channels.js";
import { connectionRoutes } from "./routes/connections.js";
import { conversationRoutes } from "./routes/conversations.js";
import { knowledgeRoutes } from "./routes/knowledge.js";
import { credentialRoutes } from "./routes/credentials.js";
import { liveRoutes } from "./routes/live.js";
import { skillRoutes } from "./routes/skills.js";
import { memoryRoutes } from "./routes/memory.js";
import { modelRoutes } from "./routes/models.js";
import { mcpServerRoutes } from "./routes/mcp-servers.js";
import { settingsRoutes } from "./routes/settings.js";
import { systemRoutes } from "./routes/system.js";
import { turnRoutes } from "./routes/turns.js";
import { webAssets } from "./web-assets.js";

/** Every /api/v1 handler group, in mount order. */
export const ROUTE_GROUPS: readonly ((bind: RouteBinder, deps: HttpDeps) => void)[] = [
  authRoutes,
  systemRoutes,
  agentRoutes,
  auditRoutes,
  conversationRoutes,
  turnRoutes,
  liveRoutes,
  skillRoutes,
  memoryRoutes,
  knowledgeRoutes,
  credentialRoutes,
  connectionRoutes,
  modelRoutes,
  settingsRoutes,
  mcpServerRoutes,
  channelRoutes,
  attachmentRoutes,
  transcriptionRoutes,
  scheduleRoutes,
];

export const MAX_BODY_BYTES = 1024 * 1024;

/** Routes the protocol marks as not needing the token in a header (they check their own). */
const SELF_CHECKED = new Set(ROUTE_LIST.filter((r) => r.auth).map((r) => `/api/v1${r.path}`));

/** Routes that read more than the default (uploads from the page), as a path matcher and their limit. */
const LARGE_BODIES = ROUTE_LIST.filter((r) => r.maxBodyBytes !== undefined).map((r) => ({
  method: r.method.toUpperCase(),
  pattern: new RegExp(`^/api/v1${r.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  limit: bodyLimit({
    maxSize: r.maxBodyBytes!,
    onError: (c) => {
      c.env.incoming.resume();
      const mb = r.maxBodyBytes! / 1024 / 1024;
      throw new ApiError("UPLOAD_TOO_LARGE", `uploads are limited to ${mb} MB (files travel base64-encoded, about a third larger); upload fewer files at a time, or import a large folder by its path`, { limit_bytes: r.maxBodyBytes });
    },
  }),
}));

/** Methods whose requests carry no body: nothing to cap. */
const BODYLESS = new Set(["GET", "HEAD"]);

/** Each body is capped: 1 MiB by default, a route's own `maxBodyBytes` where the protocol sets one. */
function routeBodyLimits(): MiddlewareHandler<Env> {
  const fallback = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => {
      // Read and discard the rest, so the client can read our answer instead of a reset.
      c.env.incoming.resume();
      throw new ApiError("PAYLOAD_TOO_LARGE", `request bodies are limited to ${MAX_BODY_BYTES} bytes`);
    },
  });
  return (c, next) => {
    // A GET or HEAD request never has a body (Node's adaptor gives its Request none), and asking
    // for one builds the full web Request per read — the largest cost a list or search paid here.
    if (BODYLESS.has(c.req.method)) return next();
    const large = LARGE_BODIES.find((r) => r.method === c.req.method && r.pattern.test(c.req.path));
    return (large?.limit ?? fallback)(c, next);
  };
}

/** The HTTP surface: guards, /api/v1 (token required), and the web app at `/`. */
export function createHttpApp(deps: HttpDeps): Hono<Env> {
  const api = new Hono<Env>()
    .use(scrubResponses(deps.scrubber))
    .use(requireAuth(deps.auth, deps.principals, SELF_CHECKED, deps.openCommand))
    .use(routeBodyLimits());
  // Each handler is bound to its ROUTES entry, in this order (a literal path before a {param} one).
  const bind = routeBinder(api, (text) => deps.scrubber.scrub(text));
  for (const mount of ROUTE_GROUPS) mount(bind, deps);
  api.all("*", (c) => c.json(envelope("NOT_FOUND", `no route ${c.req.method} ${new URL(c.req.url).pathname}`), httpStatusOf("NOT_FOUND")));

  // Refuse to serve a surface that differs from the protocol's table (tested in route-coverage.test.ts).
  const mismatches = routeTableMismatches(
    api.routes.map((r) => ({ method: r.method, path: `/api/v1${r.path === "/" ? "" : r.path}` })),
    ROUTE_LIST,
  );
  if (mismatches.length) throw new Error(`the HTTP routes and protocol's ROUTES disagree: ${mismatches.join("; ")}`);

  const app = new Hono<Env>();
  // First, so its headers land on every answer, the guards' refusals and errors included.
  app.use(secureHeaders(), urlGuard(), hostGuard(), originGuard());
  app.route("/api/v1", api);
  // The MCP gateway: same guards as the API; the daemon token or an agent's gateway-only
  // credential; the SDK transport reads its own body (capped at 4 MiB).
  app.all("/mcp", (c) => {
    const caller = gatewayPrincipal(c, deps.token, deps.mcp.credentials);
    const principal: Principal = caller.kind === "agent" ? { kind: "agent", agent: caller.agent, conversation_id: caller.conversationId } : tokenPrincipal(c);
    return deps.principals.run(principal, () => deps.mcp.endpoint(c.req.raw, caller));
  });
  app.get("*", webAssets(deps.webRoot, deps.openCommand));
  app.notFound((c) => c.json(deps.scrubber.scrubValue(envelope("NOT_FOUND", `no route ${c.req.method} ${new URL(c.req.url).pathname}`)), httpStatusOf("NOT_FOUND")));
  app.onError((err, c) => {
    const { status, body: raw, unexpected } = toHttpError(err);
    // An error message may quote what a provider or upstream said, secrets included.
    const body = deps.scrubber.scrubValue(raw);
    if (unexpected) deps.logger.error("request failed", { method: c.req.method, path: c.req.path, err: String((err as Error)?.stack ?? err) });
    // An unread oversize body leaves the connection unusable: say so, so clients do not reuse it.
    // A refused credential closes its connection too: a flood of wrong guesses cannot hold sockets open.
    if (status === 413 || status === 401) c.header("connection", "close");
    return c.json(body, status);
  });
  return app;
}

/**
 * What every `thread/start` and `thread/resume` carries. Built in one place so the next
 * per-thread setting is one line here: the MCP gateway goes into `sessionConfig` as
 * `mcp_servers` (Codex does not persist it with the thread, so it must ride on both calls).
 */
import type { GatewayAccess } from "../../../application/gateway/gateway-ports.js";
import type { JsonValue } from "./json-rpc-connection.js";

export interface ThreadSettings {
  readonly cwd: string | undefined;
  readonly model: string | undefined;
  /** Coffer's MCP gateway; not persisted by Codex, so it rides on every start and resume. */
  readonly gateway?: GatewayAccess;
}

/**
 * Full permissions, no prompts: the owner pairing is the security gate (docs/architecture.md,
 * "Security boundaries"). The approval policy rides in `config` (ASK_ONLY_FOR_FORMS), not as
 * the `approvalPolicy` param.
 */
export function threadStartParams(settings: ThreadSettings): Record<string, JsonValue> {
  return withoutUndefined({
    cwd: settings.cwd,
    sandbox: "danger-full-access",
    model: settings.model,
    config: sessionConfig(settings.gateway),
  });
}

export function threadResumeParams(threadId: string, settings: ThreadSettings): Record<string, JsonValue> {
  return { threadId, ...threadStartParams(settings) };
}

/** Codex makes a turn's model sticky for the thread, so every turn names its model. */
export function turnStartParams(threadId: string, text: string, model: string | null, imagePaths: readonly string[] = []): Record<string, JsonValue> {
  return withoutUndefined({
    threadId,
    // An image goes as `localImage` (Codex reads the file and sends it as input_image).
    input: [{ type: "text", text, text_elements: [] }, ...imagePaths.map((path) => ({ type: "localImage", path }))],
    model: model ?? undefined,
  });
}

/** `turn/steer`: more input for the running turn, refused by Codex unless `expectedTurnId` is still the active one. */
export function turnSteerParams(threadId: string, turnId: string, text: string): Record<string, JsonValue> {
  return { threadId, expectedTurnId: turnId, input: [{ type: "text", text, text_elements: [] }] };
}

/** Per-thread config overrides, merged by Codex over the owner's config.toml (never written). */
function sessionConfig(gateway: GatewayAccess | undefined): Record<string, JsonValue> {
  // Offer the model request_user_input outside plan mode: Coffer answers it (user-input.ts).
  const asking = { "features.default_mode_request_user_input": true, approval_policy: ASK_ONLY_FOR_FORMS };
  if (!gateway) return asking;
  // Inline http_headers keep the token on the JSON-RPC pipe only (never argv, env or CODEX_HOME).
  return {
    ...asking,
    mcp_servers: {
      coffer: { url: gateway.url, http_headers: { Authorization: `Bearer ${gateway.token}` }, startup_timeout_sec: GATEWAY_STARTUP_TIMEOUT_SEC },
    },
  };
}

/**
 * "never", except that an MCP server's form elicitation is forwarded to us (the owner answers
 * it: elicitation-form.ts). Under "never" Codex 0.171 declines every elicitation itself and
 * never asks the client; only a granular policy with `mcp_elicitations` forwards them. Every
 * other category stays auto-rejected, as under "never" (the sandbox is off, so there is
 * nothing to escalate). A config override rather than the `approvalPolicy` param, which takes
 * `granular` only from a client that opts into the experimental API (docs/decisions.md,
 * "Owner in the loop (issue 14)").
 */
const ASK_ONLY_FOR_FORMS = {
  granular: { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true },
};

/** Codex waits ~1 s for MCP servers before a turn anyway; this only bounds a stuck handshake. */
const GATEWAY_STARTUP_TIMEOUT_SEC = 15;

function withoutUndefined(record: Record<string, JsonValue | undefined>): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Record<string, JsonValue>;
}

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { CanUseTool, Options, SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import type { GatewayAccess } from "../../../application/gateway/gateway-ports.js";

/** What one warm Claude Code process is started with. */
export interface SessionSpec {
  /** The `claude` found on the daemon's PATH. */
  readonly executable: string;
  readonly cwd: string;
  /** Always explicit: the conversation's agent_config.model, else {@link defaultModel}. */
  readonly model: string;
  /** The stored session id to continue; absent = a fresh session. */
  readonly resume?: string;
  /** The daemon's environment. */
  readonly env: NodeJS.ProcessEnv;
  /** Coffer's MCP gateway; servers are not saved in the session, so every query() gets it. */
  readonly gateway?: GatewayAccess;
}

/** A warm process serves only turns that would start it the same way. */
export function sessionKey(spec: SessionSpec): string {
  return JSON.stringify([spec.executable, spec.cwd, spec.model]);
}

/** Every option a `query()` is started with, in one place. */
export function buildQueryOptions(
  spec: SessionSpec,
  spawn: (options: SpawnOptions) => SpawnedProcess,
  canUseTool?: CanUseTool,
): Options {
  return {
    pathToClaudeCodeExecutable: spec.executable,
    spawnClaudeCodeProcess: spawn,
    cwd: spec.cwd,
    model: spec.model,
    ...(spec.resume ? { resume: spec.resume } : {}),
    permissionMode: "bypassPermissions",
    allowDangerouslySkipPermissions: true,
    // Without a canUseTool the CLI disables AskUserQuestion for the session (ask-user-question.ts).
    ...(canUseTool ? { canUseTool } : {}),
    includePartialMessages: true,
    ...(spec.gateway ? gatewayOptions(spec.gateway) : {}),
    env: { ...childEnv(spec.env), ...(spec.gateway ? GATEWAY_ENV : {}) },
  };
}

/**
 * Claude Code blocks a turn's start until its MCP servers answer (30 s by default); the
 * gateway answers at once unless an upstream is on its first connect (each ≤ its own
 * startup timeout, 10 s by default), so MCP_TIMEOUT stays above that and below the default.
 * MCP_PROTOCOL_NEGOTIATION=legacy: the CLI otherwise opens every HTTP server with a
 * `server/discover` probe for a newer protocol, which the gateway (MCP SDK, 2025-11-25)
 * always refuses — one round trip inside the CLI's start-up, before the first model request,
 * on every cold turn (measured: docs/decisions.md, "Speed and footprint"). Only the gateway
 * is configured (strictMcpConfig), so no other server loses the newer protocol.
 */
const GATEWAY_ENV = { MCP_TIMEOUT: "15000", MCP_PROTOCOL_NEGOTIATION: "legacy" } as const;

/**
 * The gateway as the `coffer` server (tools `mcp__coffer__<tool>`): the token goes in a
 * header over the SDK's initialize message (never argv or a file); `alwaysLoad` skips the
 * ToolSearch round trip; `strictMcpConfig` ignores the owner's other MCP configs.
 */
function gatewayOptions(gateway: GatewayAccess): Pick<Options, "mcpServers" | "strictMcpConfig"> {
  return {
    mcpServers: { coffer: { type: "http", url: gateway.url, headers: { Authorization: `Bearer ${gateway.token}` }, alwaysLoad: true } },
    strictMcpConfig: true,
  };
}

/** The daemon's environment plus what a turn needs; `env` replaces the child's, so spread. */
export function childEnv(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return {
    ...env,
    // As root the CLI refuses bypassPermissions unless told it runs in a sandbox.
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}),
    CLAUDE_AGENT_SDK_CLIENT_APP: "coffer",
  };
}

/**
 * The model a conversation without its own runs on. It must be explicit: a resumed
 * session otherwise keeps the model its last turn used, so clearing the conversation's
 * model would not take effect. Same precedence as the CLI (env, then the user settings
 * the owner's provider profile is projected into, read and never written), then the
 * CLI's own alias for its built-in default.
 */
export function defaultModel(env: NodeJS.ProcessEnv): string {
  if (env.ANTHROPIC_MODEL?.trim()) return env.ANTHROPIC_MODEL.trim();
  const configDir = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude");
  return settingsModel(join(configDir, "settings.json")) ?? "default";
}

function settingsModel(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  try {
    const model = (JSON.parse(text) as { model?: unknown }).model;
    return typeof model === "string" && model.trim() ? model.trim() : undefined;
  } catch {
    return undefined; // a settings file the CLI cannot read either: it falls back the same way
  }
}

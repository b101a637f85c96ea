import type { Options, SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";

/** What one warm Claude Code process is started with. */
export interface SessionSpec {
  /** The `claude` found on the daemon's PATH. */
  readonly executable: string;
  readonly cwd: string;
  /** The conversation's agent_config.model; absent = the CLI's own default. */
  readonly model?: string;
  /** The stored session id to continue; absent = a fresh session. */
  readonly resume?: string;
  /** The daemon's environment. */
  readonly env: NodeJS.ProcessEnv;
}

/** A warm process serves only turns that would start it the same way. */
export function sessionKey(spec: SessionSpec): string {
  return JSON.stringify([spec.executable, spec.cwd, spec.model ?? null]);
}

/**
 * Every option a `query()` is started with, in one place. The MCP gateway joins here
 * as `mcpServers` (one line) when it lands.
 */
export function buildQueryOptions(spec: SessionSpec, spawn: (options: SpawnOptions) => SpawnedProcess): Options {
  return {
    pathToClaudeCodeExecutable: spec.executable,
    spawnClaudeCodeProcess: spawn,
    cwd: spec.cwd,
    ...(spec.model ? { model: spec.model } : {}),
    ...(spec.resume ? { resume: spec.resume } : {}),
    permissionMode: "bypassPermissions",
    allowDangerouslySkipPermissions: true,
    includePartialMessages: true,
    env: childEnv(spec.env),
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

/**
 * Which `codex` Coffer runs and with what environment. By default the owner's own:
 * `codex` from the daemon's PATH and their own CODEX_HOME (so their login, config.toml
 * and history are the ones used). Two variables point it elsewhere without touching the
 * owner's shell setup (README, "Configuration"):
 *   COFFER_CODEX_BIN   the codex executable to run instead of the one on PATH
 *   COFFER_CODEX_HOME  the CODEX_HOME to give it (tests: a temp home aimed at a fake model)
 * Coffer never writes the owner's config.toml: the model goes on each turn instead.
 */
import { accessSync, constants, statSync } from "node:fs";
import { findOnPath } from "../../system/path-lookup.js";

export const CODEX_BIN_ENV = "COFFER_CODEX_BIN";
export const CODEX_HOME_ENV = "COFFER_CODEX_HOME";

export interface CodexLaunch {
  /** The executable, or null when none is installed. */
  readonly binary: string | null;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

export function resolveCodexLaunch(env: NodeJS.ProcessEnv): CodexLaunch {
  const explicit = env[CODEX_BIN_ENV]?.trim();
  const binary = explicit ? (isExecutableFile(explicit) ? explicit : null) : findOnPath("codex", env.PATH);
  const home = env[CODEX_HOME_ENV]?.trim();
  return { binary, args: APP_SERVER_ARGS, env: home ? { ...env, CODEX_HOME: home } : { ...env } };
}

/**
 * A thread is unloaded as soon as its last subscriber leaves (Codex's default waits 30 min):
 * Coffer unsubscribes idle threads on purpose (codex-threads.ts), because every loaded thread
 * slows each turn start. A command-line override, never written to the owner's config.toml.
 */
const APP_SERVER_ARGS: readonly string[] = ["app-server", "-c", "thread_unload_delay_secs=0"];

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

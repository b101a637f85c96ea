import { AGENT_MARK_ENV } from "../system/orphan-reaper.js";

/** Coffer's own settings (COFFER_HOME, COFFER_TOKEN, COFFER_CODEX_HOME, …) all start so. */
const OWN_PREFIX = "COFFER_";

/**
 * The environment every agent process (`claude`, `codex app-server`) is started with — and so
 * every tool it runs: the daemon's, minus every `COFFER_*` variable. Those are Coffer's own
 * settings (a data dir path, the CLI's token, test hooks); an agent has no use for them, and
 * one `env` in a Bash call would otherwise hand them to the model and into the transcript
 * (issue 21, W1). What an agent needs from them is passed translated (COFFER_CODEX_HOME as
 * CODEX_HOME, codex-launch.ts). The one Coffer variable added back is the ledger's marker
 * (AGENT_MARK_ENV): a random id per process, no secret, which the orphan reaper finds in a
 * tool's /proc environ after a `kill -9` of the daemon (system/orphan-reaper.ts).
 */
export function agentEnvironment(base: Readonly<Record<string, string | undefined>>, mark?: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || name.toUpperCase().startsWith(OWN_PREFIX)) continue;
    env[name] = value;
  }
  if (mark !== undefined) env[AGENT_MARK_ENV] = mark;
  return env;
}

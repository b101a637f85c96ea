import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hermeticPath } from "../../packages/daemon/test/fakes/agent-rig.js";
import { ApiClient, SseSubscription } from "../../packages/daemon/test/support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../../packages/daemon/test/support/spawn-daemon.js";

export interface E2eDaemon {
  readonly daemon: DaemonProcess;
  readonly api: ApiClient;
  readonly home: string;
  /** The address `coffer start --print-url` prints, token included (the page trades it for a session). */
  readonly openUrl: string;
  subscribe(conversationId: string): Promise<SseSubscription>;
  /** End the daemon; with keepHome its data dir stays, for a daemon started again on it (startE2eDaemon's `home`). */
  stop(options?: { keepHome?: boolean }): Promise<void>;
}

/**
 * A real daemon in a child process with the scripted agent, on a fresh data dir, in an
 * explicit hermetic environment: PATH holds only an empty bin folder, node's and the system's
 * (so no developer `claude`/`codex` shows up unless a test puts one there through `env`), and
 * HOME/CODEX_HOME/CLAUDE_CONFIG_DIR are temp folders — never the developer's. A fixed port
 * is `env.COFFER_PORT` (the default, 0, picks a free one).
 */
export async function startE2eDaemon(env: NodeJS.ProcessEnv = {}, home = mkdtempSync(join(tmpdir(), "coffer-e2e-"))): Promise<E2eDaemon> {
  const sandbox = mkdtempSync(join(tmpdir(), "coffer-e2e-env-"));
  for (const dir of ["bin", "home", "tmp"]) mkdirSync(join(sandbox, dir));
  const base: NodeJS.ProcessEnv = {
    PATH: hermeticPath(join(sandbox, "bin")),
    HOME: join(sandbox, "home"),
    TMPDIR: join(sandbox, "tmp"),
    LANG: "C.UTF-8",
    SHELL: "/bin/bash",
    CODEX_HOME: join(sandbox, "home", ".codex"),
    CLAUDE_CONFIG_DIR: join(sandbox, "home", ".claude"),
    COFFER_SSE_HEARTBEAT_MS: "1000",
  };
  const daemon = await spawnDaemon(home, { ...base, ...env }, { hermetic: true });
  return {
    daemon,
    home,
    api: new ApiClient(daemon.url, daemon.token),
    openUrl: `${daemon.url}/?token=${daemon.token}`,
    subscribe: (id) => SseSubscription.open(daemon.url, daemon.token, `/chat/conversations/${id}/events`),
    async stop({ keepHome = false } = {}) {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
      if (!keepHome) rmSync(home, { recursive: true, force: true });
      rmSync(sandbox, { recursive: true, force: true });
    },
  };
}

export function script(...steps: unknown[]): string {
  return JSON.stringify({ script: steps });
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../../packages/daemon/test/support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../../packages/daemon/test/support/spawn-daemon.js";

export interface E2eDaemon {
  readonly daemon: DaemonProcess;
  readonly api: ApiClient;
  readonly home: string;
  /** The address `coffer start --print-url` prints, token included (the page trades it for a session). */
  readonly openUrl: string;
  stop(): Promise<void>;
}

/** A real daemon in a child process with the scripted agent, on a fresh data dir. */
export async function startE2eDaemon(env: NodeJS.ProcessEnv = {}, home = mkdtempSync(join(tmpdir(), "coffer-e2e-"))): Promise<E2eDaemon> {
  const daemon = await spawnDaemon(home, { COFFER_SSE_HEARTBEAT_MS: "1000", ...env });
  return {
    daemon,
    home,
    api: new ApiClient(daemon.url, daemon.token),
    openUrl: `${daemon.url}/?token=${daemon.token}`,
    async stop() {
      daemon.child.kill("SIGTERM");
      await daemon.exited;
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function script(...steps: unknown[]): string {
  return JSON.stringify({ script: steps });
}

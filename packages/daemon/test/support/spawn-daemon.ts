import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("./daemon-process.ts", import.meta.url));

export interface DaemonProcess {
  readonly url: string;
  readonly token: string;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process has gone. */
  readonly exited: Promise<number | string>;
  stderr(): string;
}

/**
 * Start a daemon (with the scripted agent) in a child process; resolves when it is listening.
 * With `hermetic`, `env` is its whole environment (a real agent's rig builds one from
 * scratch) instead of an addition to this process's.
 */
export function spawnDaemon(home: string, env: NodeJS.ProcessEnv = {}, options: { hermetic?: boolean } = {}): Promise<DaemonProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", ENTRY], {
    env: { ...(options.hermetic ? {} : process.env), COFFER_HOME: home, COFFER_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (err += c));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      try {
        const { ready } = JSON.parse(line) as { ready?: { url: string; token: string; port: number; pid: number } };
        if (ready) resolve({ ...ready, child, exited, stderr: () => err });
      } catch {
        // not our line
      }
    });
    void exited.then((code) => reject(new Error(`daemon exited (${code}) before listening:\n${err}`)));
  });
}

import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

export interface Child<T> {
  readonly child: ChildProcess;
  /** What `parse` made of the first stdout line it accepted. */
  readonly ready: T;
  readonly exited: Promise<number | string>;
  stderr(): string;
  stop(): Promise<number | string>;
  /** The next stdout line (after the ready line) that `parse` accepts; earlier unmatched lines are skipped. */
  nextLine<U>(parse: (line: string) => U | undefined): Promise<U>;
}

/**
 * Spawn a process and resolve once a stdout line parses (parse returns non-undefined).
 * Rejects if the process exits first, with its stderr.
 */
export function spawnUntil<T>(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  parse: (line: string) => T | undefined,
): Promise<Child<T>> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (err += c));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    return exited;
  };
  const backlog: string[] = [];
  let waiter: ((line: string) => void) | null = null;
  const nextLine = async <U>(accept: (line: string) => U | undefined): Promise<U> => {
    for (;;) {
      const line = backlog.shift() ?? (await new Promise<string>((r) => (waiter = r)));
      const value = accept(line);
      if (value !== undefined) return value;
    }
  };
  let isReady = false;
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (isReady) {
        const w = waiter;
        waiter = null;
        if (w) w(line);
        else backlog.push(line);
        return;
      }
      const ready = parse(line);
      if (ready !== undefined) {
        isReady = true;
        resolve({ child, ready, exited, stderr: () => err, stop, nextLine });
      }
    });
    void exited.then((code) => reject(new Error(`${args.join(" ")} exited (${code}) before it was ready:\n${err}`)));
  });
}

/** Parses a line of JSON that has the given key. */
export function jsonLine<T>(key: string): (line: string) => T | undefined {
  return (line) => {
    if (!line.startsWith("{")) return undefined;
    const value = JSON.parse(line) as Record<string, unknown>;
    return key in value ? (value[key] as T) : undefined;
  };
}

/** Rejects with `what` if `promise` has not settled within `ms`: benches must not hang. */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

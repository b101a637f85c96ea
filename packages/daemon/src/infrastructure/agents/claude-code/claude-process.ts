import { spawn, type ChildProcess } from "node:child_process";
import { Transform, type Readable, type Writable, type TransformCallback } from "node:stream";
import type { SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { agentEnvironment } from "../agent-environment.js";
import { LedgerEntry, type ProcessOwner } from "../process-ledger-entry.js";

/** How a `claude` process ended, as far as we saw it; what fault mapping reads. */
export interface ProcessEnd {
  readonly spawnError: NodeJS.ErrnoException | null;
  /** The first stdout line that was not JSON; the process is killed when one appears. */
  readonly protocolFault: string | null;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** We killed it (interrupt deadline, eviction, garbage on stdout): not a crash. */
  readonly killedByUs: boolean;
  readonly stderrTail: string;
}

const STDERR_TAIL_BYTES = 4096;

/**
 * The `claude` child as the SDK sees it (its `spawnClaudeCodeProcess` hook), plus what
 * the SDK does not give us: its own process group (so a kill takes the tools it ran
 * with it), a stderr tail, how it exited, and a guard that stdout is NDJSON.
 */
export class ClaudeProcess implements SpawnedProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Resolves once the process has gone (or never started). */
  readonly exited: Promise<ProcessEnd>;
  private readonly child: ChildProcess;
  private stderr = "";
  private spawnError: NodeJS.ErrnoException | null = null;
  private protocolFault: string | null = null;
  private killedByUs = false;
  private ended: ProcessEnd | null = null;

  /** `owner`: where the process is written down so a crashed daemon's successor can reap it. */
  constructor(options: SpawnOptions, owner?: ProcessOwner) {
    const entry = owner ? new LedgerEntry(owner) : null;
    this.child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: entry ? entry.env(options.env) : agentEnvironment(options.env),
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // own process group: killTree() reaches the tools it started
    });
    entry?.started(this.child.pid);
    this.stdin = this.child.stdin!;
    this.stdout = this.child.stdout!.pipe(new NdjsonGuard((line) => this.onGarbage(line)));
    this.child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    this.exited = new Promise((resolve) => {
      this.child.once("error", (err: NodeJS.ErrnoException) => {
        this.spawnError ??= err;
        if (this.child.pid === undefined) resolve(this.finish(null, null));
      });
      this.child.once("exit", (code, signal) => resolve(this.finish(code, signal)));
    });
    if (entry) void this.exited.then(() => entry.exited());
    // The SDK aborts this only after its own graceful stdin-EOF window.
    options.signal.addEventListener("abort", () => this.killTree(), { once: true });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get killed(): boolean {
    return this.child.killed;
  }
  get exitCode(): number | null {
    return this.child.exitCode;
  }
  get signalCode(): NodeJS.Signals | null {
    return this.child.signalCode;
  }
  /** Set once the process has gone. */
  get ending(): ProcessEnd | null {
    return this.ended;
  }

  kill(signal: NodeJS.Signals): boolean {
    this.killedByUs = true;
    return this.child.kill(signal);
  }

  /** SIGKILL the whole process group: the CLI and every tool it is running. */
  killTree(): void {
    if (this.ended || this.child.pid === undefined) return;
    this.killedByUs = true;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    }
  }

  on(event: "exit" | "error", listener: (...args: any[]) => void): void {
    this.child.on(event, listener);
  }
  once(event: "exit" | "error", listener: (...args: any[]) => void): void {
    this.child.once(event, listener);
  }
  off(event: "exit" | "error", listener: (...args: any[]) => void): void {
    this.child.off(event, listener);
  }

  private onGarbage(line: string): void {
    if (this.protocolFault !== null) return;
    this.protocolFault = line;
    this.killTree();
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): ProcessEnd {
    this.ended = {
      spawnError: this.spawnError,
      protocolFault: this.protocolFault,
      exitCode: code,
      signal,
      killedByUs: this.killedByUs,
      stderrTail: this.stderr.trim(),
    };
    return this.ended;
  }
}

/** Passes stdout through unchanged and reports the first line that is not a JSON object. */
class NdjsonGuard extends Transform {
  private partial = "";
  private reported = false;

  constructor(private readonly onGarbage: (line: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.reported) this.scan(chunk.toString("utf8"));
    callback(null, chunk);
  }

  private scan(text: string): void {
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim() || isJsonObject(line)) continue;
      this.reported = true;
      this.onGarbage(line.slice(0, 200));
      return;
    }
  }
}

function isJsonObject(line: string): boolean {
  if (!line.trimStart().startsWith("{")) return false;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

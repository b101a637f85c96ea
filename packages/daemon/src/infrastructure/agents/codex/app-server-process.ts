/**
 * One `codex app-server` child process speaking JSON-RPC on its stdio. Its stderr goes to
 * the daemon log line by line (upstream lost every crash reason by swallowing it), and
 * the last lines are kept to explain an exit.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import type { Logger } from "../../../application/ports.js";
import type { CodexLaunch } from "./codex-launch.js";
import { agentEnvironment } from "../agent-environment.js";
import { LedgerEntry, type ProcessOwner } from "../process-ledger-entry.js";
import { JsonRpcConnection, type ConnectionHandlers } from "./json-rpc-connection.js";

const STDERR_TAIL_LINES = 8;
const STOP_GRACE_MS = 2000;

/** The process ended (or never started); every request still waiting fails with this. */
export class AppServerExited extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AppServerExited";
  }
}

export class AppServerProcess {
  readonly connection: JsonRpcConnection;
  /** Settles once the process is gone and its output fully read. */
  readonly exited: Promise<AppServerExited>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stderrTail: string[] = [];

  constructor(
    launch: CodexLaunch & { readonly binary: string },
    handlers: Omit<ConnectionHandlers, "onMalformed">,
    private readonly logger: Logger,
    owner?: ProcessOwner,
  ) {
    const entry = owner ? new LedgerEntry(owner) : null;
    // Its own process group, written in the ledger: a killed daemon's successor reaps it and its tools.
    this.child = spawn(launch.binary, [...launch.args], {
      env: entry ? entry.env(launch.env) : agentEnvironment(launch.env),
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    entry?.started(this.child.pid);
    const child = this.child;
    this.connection = new JsonRpcConnection((line) => this.write(line), {
      ...handlers,
      onMalformed: (line, reason) => logger.warn("codex app-server sent a line that is not JSON-RPC; skipped", { reason, line: line.slice(0, 500) }),
    });
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => this.connection.receive(line));
    createInterface({ input: child.stderr, crlfDelay: Infinity }).on("line", (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      logger.info("codex app-server stderr", { pid: child.pid, line });
    });
    // A closed pipe surfaces as the exit below; without a listener it would crash the daemon.
    child.stdin.on("error", (err) => logger.debug("codex app-server stdin closed", { err: String(err) }));

    this.exited = new Promise((resolve) => {
      let spawnError: Error | null = null;
      child.once("error", (err) => (spawnError = err));
      // "close" fires after stdout is drained, so no late line is lost.
      child.once("close", (code, signal) => {
        const why = spawnError
          ? `codex app-server could not start (${launch.binary}): ${spawnError.message}`
          : `codex app-server exited (${signal ? `signal ${signal}` : `code ${code}`})${this.stderrSummary()}`;
        const exit = new AppServerExited(why);
        this.connection.close(exit);
        entry?.exited();
        resolve(exit);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Close stdin (the app-server's own way to quit), then escalate if it lingers. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const quit = await Promise.race([this.exited.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
    if (quit) return;
    this.child.kill("SIGTERM");
    const terminated = await Promise.race([this.exited.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
    if (!terminated) this.child.kill("SIGKILL");
    await this.exited;
  }

  private write(line: string): void {
    if (this.child.stdin.writable) this.child.stdin.write(line);
  }

  private stderrSummary(): string {
    const tail = this.stderrTail.filter((l) => !l.includes("could not create PATH aliases")).join(" | ");
    return tail ? `: ${tail.slice(-800)}` : "";
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

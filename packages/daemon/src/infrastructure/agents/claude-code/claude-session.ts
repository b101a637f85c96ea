import { randomUUID } from "node:crypto";
import type { Query, SDKUserMessage, query } from "@anthropic-ai/claude-agent-sdk";

/** The SDK's `query`, passed in: the SDK is loaded on the first turn, not at daemon start. */
export type StartQuery = typeof query;
import { canUseTool, type Ask } from "./ask-user-question.js";
import { ClaudeProcess } from "./claude-process.js";
import type { ProcessOwner } from "../process-ledger-entry.js";
import { InputQueue } from "./input-queue.js";
import { processFault } from "./process-fault.js";
import type { ClaudeTurnMapper, MappedStep } from "./sdk-message-mapper.js";
import { buildQueryOptions, sessionKey, type SessionSpec } from "./session-options.js";

export interface SessionTimings {
  /** After asking the CLI to interrupt, how long before we kill it instead. */
  readonly interruptDeadlineMs: number;
  /** After the process exits, how long its last buffered lines get to arrive. */
  readonly exitGraceMs: number;
  /** After closing an idle session's input, how long before its process group is killed. */
  readonly closeGraceMs: number;
}

type Pulled =
  | { readonly kind: "message"; readonly message: Record<string, unknown> }
  | { readonly kind: "end" }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "aborted" }
  | { readonly kind: "deadline" }
  | { readonly kind: "exited" };

/**
 * One long-lived `claude` process for one conversation: a single `query()` fed by an
 * input queue (streaming-input mode), so turn two onwards skip the process start.
 * Turns run one at a time; each ends at its `result`, a fault, or an interrupt.
 */
export class ClaudeSession {
  readonly key: string;
  private readonly input = new InputQueue<SDKUserMessage>();
  private readonly query: Query;
  private proc: ClaudeProcess | null = null;
  private pending: Promise<Pulled> | null = null;
  private exitedWait: Promise<Pulled> | null = null;
  private onProcessExit: () => void = () => undefined;
  private readonly processExit = new Promise<void>((resolve) => (this.onProcessExit = resolve));
  private dead = false;
  private running = false;
  /** The running turn's way to the owner; the query outlives turns, so it is looked up per call. */
  private ask: Ask | null = null;
  private stopping = false;
  /**
   * Messages steered into the running turn, by the uuid we gave them, until the CLI reports
   * (command_lifecycle) that it started them: `ack` resolves steer() once the CLI has them.
   */
  private readonly steers = new Map<string, { started: boolean; ack: (taken: boolean) => void }>();

  constructor(
    readonly spec: SessionSpec,
    private readonly timings: SessionTimings,
    start: StartQuery,
    owner?: ProcessOwner,
  ) {
    this.key = sessionKey(spec);
    this.query = start({
      prompt: this.input,
      options: buildQueryOptions(spec, (options) => {
        const proc = new ClaudeProcess(options, owner);
        this.proc = proc;
        void proc.exited.then(() => this.onProcessExit());
        return proc;
      }, canUseTool(() => this.ask)),
    });
  }

  /** False once the process is gone or the session was given up: start a new one. */
  get usable(): boolean {
    return !this.dead && !this.proc?.ending;
  }

  /** A turn is still draining (an interrupt the engine stopped waiting for). */
  get busy(): boolean {
    return this.running;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** Resolves once the session's process has gone. */
  get exited(): Promise<void> {
    return this.processExit;
  }

  /**
   * Runs one turn. Yields mapped steps; exactly one carries a terminal event unless the
   * signal aborts, in which case the CLI is interrupted (then killed at the deadline)
   * and whatever partial output it still reports is yielded without a terminal.
   */
  async *runTurn(text: string, signal: AbortSignal, mapper: ClaudeTurnMapper, ask?: Ask, images: readonly ImageBlock[] = []): AsyncGenerator<MappedStep> {
    this.running = true;
    this.ask = ask ?? null;
    this.stopping = false;
    this.input.push(userMessage(text, images));
    const aborted = abortOf(signal);
    let deadline: { promise: Promise<Pulled>; timer: NodeJS.Timeout } | null = null;
    try {
      for (;;) {
        const waits = [this.pull(), this.exitGrace()];
        if (deadline) waits.push(deadline.promise);
        else waits.push(aborted);
        const got = await Promise.race(waits);
        switch (got.kind) {
          case "aborted":
            this.stopping = true;
            deadline = this.interrupt();
            continue;
          case "deadline":
            this.kill();
            return;
          case "message": {
            if (got.message.type === "command_lifecycle") this.steerProgress(got.message);
            const step = mapper.map(got.message);
            if (step.finished && this.steerNotStarted()) {
              if (deadline) {
                // Stopped with a steer still queued in the CLI: it would run as a turn of its own
                // after this one. Ending the process drops it (the next turn resumes the session).
                yield { ...step, events: step.events.filter((e) => e.type !== "turn_done" && e.type !== "turn_error") };
                this.kill();
                return;
              }
              // The CLI took the steer after its last tool step: it runs it right after this
              // result, as the same turn for us. Swallow this result and keep reading.
              yield { ...step, events: step.events.filter((e) => e.type !== "turn_done" && e.type !== "turn_error"), finished: false };
              continue;
            }
            // Once stopped, the engine writes the terminal itself; keep only the partial output.
            yield deadline ? { ...step, events: step.events.filter((e) => e.type !== "turn_done" && e.type !== "turn_error") } : step;
            if (step.finished) return;
            continue;
          }
          case "end":
          case "error":
          case "exited":
            this.kill();
            if (!deadline) yield { events: [processFault(this.proc?.ending ?? null, got.kind === "error" ? got.error : null)], finished: true };
            return;
        }
      }
    } finally {
      this.running = false;
      this.ask = null;
      // A steer the CLI never acknowledged was not taken: the engine queues it instead.
      for (const steer of this.steers.values()) steer.ack(false);
      this.steers.clear();
      if (deadline) clearTimeout(deadline.timer);
    }
  }

  /**
   * One more user message for the running turn, at priority `next`: the CLI hands it to the
   * model with the next tool result ("The user sent a new message while you were working"),
   * or, when no tool step is left, runs it right after the turn's result — which runTurn then
   * reads as the same turn. Its uuid lets the CLI report it (command_lifecycle) and is what
   * keeps it from being run a second time as a turn of its own. Resolves true once the CLI
   * has queued it, false when no turn is running or the turn ended first.
   */
  steer(text: string): Promise<boolean> {
    if (!this.running || this.stopping || !this.usable) return Promise.resolve(false);
    const uuid = randomUUID();
    return new Promise<boolean>((resolve) => {
      let settled = false;
      const ack = (taken: boolean) => {
        if (settled) return;
        settled = true;
        resolve(taken);
      };
      this.steers.set(uuid, { started: false, ack });
      try {
        this.input.push(steerMessage(text, uuid));
      } catch {
        this.steers.delete(uuid);
        ack(false);
      }
    });
  }

  private steerProgress(message: Record<string, unknown>): void {
    const steer = typeof message.command_uuid === "string" ? this.steers.get(message.command_uuid) : undefined;
    if (!steer) return;
    if (message.state === "started" || message.state === "completed") steer.started = true;
    steer.ack(true);
  }

  private steerNotStarted(): boolean {
    for (const steer of this.steers.values()) if (!steer.started) return true;
    return false;
  }

  /** Ends the session: stdin EOF first, then the whole process group after a grace. */
  close(): Promise<void> {
    if (!this.dead) {
      this.dead = true;
      this.input.close();
      this.query.close();
    }
    const proc = this.proc;
    if (!proc || proc.ending) return Promise.resolve();
    const timer = setTimeout(() => proc.killTree(), this.timings.closeGraceMs);
    return proc.exited.then(() => clearTimeout(timer));
  }

  private kill(): void {
    this.dead = true;
    this.proc?.killTree();
    this.input.close();
    this.query.close();
  }

  private interrupt(): { promise: Promise<Pulled>; timer: NodeJS.Timeout } {
    // A failed or unanswered interrupt is settled by the deadline kill, so its outcome is not awaited.
    this.query.interrupt().catch(() => undefined);
    let timer!: NodeJS.Timeout;
    const promise = new Promise<Pulled>((resolve) => {
      timer = setTimeout(() => resolve({ kind: "deadline" }), this.timings.interruptDeadlineMs);
    });
    return { promise, timer };
  }

  private pull(): Promise<Pulled> {
    this.pending ??= this.query.next().then(
      (r): Pulled => {
        this.pending = null;
        return r.done ? { kind: "end" } : { kind: "message", message: r.value as unknown as Record<string, unknown> };
      },
      (error: unknown): Pulled => {
        this.pending = null;
        return { kind: "error", error };
      },
    );
    return this.pending;
  }

  private exitGrace(): Promise<Pulled> {
    this.exitedWait ??= this.processExit.then(
      () => new Promise<Pulled>((resolve) => setTimeout(() => resolve({ kind: "exited" }), this.timings.exitGraceMs).unref()),
    );
    return this.exitedWait;
  }
}

/** An image the model sees as an image: an Anthropic content block, its bytes inline (base64). */
export interface ImageBlock {
  readonly type: "image";
  readonly source: { readonly type: "base64"; readonly media_type: string; readonly data: string };
}

function userMessage(text: string, images: readonly ImageBlock[] = []): SDKUserMessage {
  // With images, the content is blocks: the text, then each image (the text names every file too).
  const content = images.length === 0 ? text : [{ type: "text", text }, ...images];
  return { type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "" } as SDKUserMessage;
}

function steerMessage(text: string, uuid: string): SDKUserMessage {
  return { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "", priority: "next", uuid } as SDKUserMessage;
}

function abortOf(signal: AbortSignal): Promise<Pulled> {
  if (signal.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true }));
}

/**
 * One Codex turn on the shared app-server: open the conversation's thread, `turn/start`
 * with the text and model, stream the mapped notifications, and end with exactly one
 * terminal event. On abort (stop, delete, timeout, shutdown) it sends `turn/interrupt`
 * and keeps passing events on until Codex confirms, so partial output is kept.
 */
import type { AgentEvent, TurnErrorCode, TurnErrorEvent } from "@coffer/protocol";
import { RESEEDED_NOTICE, type AgentSessionKeeper } from "../../../application/agent-sessions/session-keeper-ports.js";
import type { AdapterServices, AgentAdapter, Logger, TurnInput } from "../../../application/ports.js";
import { stringField } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";
import { AppServerExited } from "./app-server-process.js";
import type { CodexAppServer, LiveAppServer } from "./codex-app-server.js";
import { CodexTurnMapper } from "./codex-event-mapper.js";
import type { CodexThreads, OpenThread } from "./codex-threads.js";
import { JsonRpcTimeout } from "./json-rpc-connection.js";
import { JsonRpcError } from "./json-rpc-connection.js";
import { turnStartParams, turnSteerParams } from "./thread-params.js";
import { TurnInbox } from "./turn-inbox.js";

export interface CodexTurnDeps {
  readonly server: CodexAppServer;
  readonly threads: CodexThreads;
  readonly logger: Logger;
  /** How long to wait for Codex to confirm `turn/interrupt` (and a leftover turn to end). */
  readonly interruptTimeoutMs: number;
  /** The draft's spare thread was taken: its stand-in gateway id now means this conversation. */
  readonly adopted?: (standInId: string) => void;
  /** Keeps the thread's rollout in the data dir after each finished turn (absent: not kept). */
  readonly keeper?: AgentSessionKeeper;
}

export class CodexAdapter implements AgentAdapter {
  readonly model: string | undefined;
  /** The turn this adapter is running, while it can still take input. */
  private running: { live: LiveAppServer; threadId: string; turnId: string } | null = null;

  constructor(
    private readonly deps: CodexTurnDeps,
    conversation: Conversation,
    private readonly services: AdapterServices,
  ) {
    this.model = stringField(conversation.agentConfig, "model");
  }

  async *runTurn(input: TurnInput, signal: AbortSignal): AsyncIterable<AgentEvent> {
    const { conversation } = input;
    let text = input.text;
    let live: LiveAppServer;
    let thread: OpenThread;
    try {
      live = await this.deps.server.session();
    } catch (err) {
      yield failure("codex_connect_error", err);
      return;
    }
    try {
      thread = await this.deps.threads.openFor(live, conversation, this.services, this.deps.adopted);
    } catch (err) {
      yield failure(codeFor(err, "codex_thread_error"), err);
      return;
    }

    let finished = false;
    const inbox = new TurnInbox();
    const unsubscribe = live.subscribe(thread.id, {
      notification: (method, params) => inbox.notification(method, params),
      exited: (error) => inbox.exited(error),
      ask: (questions) => this.services.ask(questions),
    });
    let interrupt: (() => void) | null = null;
    try {
      await this.settleLeftoverTurn(live, thread.id);
      if (signal.aborted) return;
      if (thread.lost && this.services.reseed) {
        // Never a silent reset: the fresh thread starts from Coffer's history of the conversation,
        // and the thread says so in one line.
        text = await this.services.reseed(input.text, signal);
        this.services.audit("agent_session_reseeded", { agent: "codex", lost_session_id: thread.lost, restore: "lost" });
        yield { type: "notice", code: "agent_session_reseeded", text: RESEEDED_NOTICE };
      }
      const model = stringField(conversation.agentConfig, "model") ?? (await live.defaultModel().catch(() => null));
      // Taken before turn/start, so this turn's own usage reports count in full.
      const previousTotalTokens = live.threadTotals.get(thread.id);
      let turnId: string;
      try {
        const res = await live.rpc.request<{ turn: { id: string } }>("turn/start", turnStartParams(thread.id, text, model, (input.images ?? []).map((i) => i.path)));
        turnId = res.turn.id;
      } catch (err) {
        yield failure(codeFor(err, "codex_turn_start_failed"), err);
        return;
      }
      live.markTurnActive(thread.id, turnId);
      this.running = { live, threadId: thread.id, turnId };
      interrupt = () => {
        this.interrupt(live, thread.id, turnId);
        // If Codex never confirms, stop listening rather than hang the engine's cleanup.
        setTimeout(() => inbox.close(), 2 * this.deps.interruptTimeoutMs).unref();
      };
      signal.addEventListener("abort", interrupt, { once: true });
      if (signal.aborted) interrupt();

      const mapper = new CodexTurnMapper({
        threadId: thread.id,
        turnId,
        model: model ?? thread.model,
        previousTotalTokens,
      });
      for await (const item of inbox) {
        const events =
          item.kind === "exit" ? mapper.fail("codex_exited", item.error.message) : mapper.map(item.method, item.params);
        if (mapper.done) this.running = null;
        for (const event of events) {
          if (event.type === "turn_done") {
            finished = true;
            this.rememberThread(conversation, thread.id);
            void this.deps.keeper?.keep(conversation.id, thread.id, thread.path);
          }
          yield event;
        }
        if (mapper.done) return;
      }
    } finally {
      this.running = null;
      if (interrupt) signal.removeEventListener("abort", interrupt);
      unsubscribe();
      this.deps.threads.settle(conversation.id, thread.id, finished);
    }
  }

  /**
   * `turn/steer` pinned to our turn id: Codex refuses it once that turn is over, so a refusal
   * means the text was not taken (the engine queues it); a timeout is left to throw.
   */
  async steer(text: string): Promise<boolean> {
    const running = this.running;
    if (!running) return false;
    try {
      await running.live.rpc.request("turn/steer", turnSteerParams(running.threadId, running.turnId, text), this.deps.interruptTimeoutMs);
      return true;
    } catch (err) {
      if (err instanceof JsonRpcError) {
        this.deps.logger.info("codex refused turn/steer", { threadId: running.threadId, turnId: running.turnId, err: err.message });
        return false;
      }
      throw err;
    }
  }

  /** Saved only once a turn has finished: Codex keeps no rollout of a thread that never ran one. */
  private rememberThread(conversation: Conversation, threadId: string): void {
    if (stringField(conversation.agentConfig, "session_id") !== threadId) this.services.saveSessionId(threadId);
  }

  private interrupt(live: LiveAppServer, threadId: string, turnId: string): void {
    live.rpc
      .request("turn/interrupt", { threadId, turnId }, this.deps.interruptTimeoutMs)
      .catch((err: unknown) => this.deps.logger.warn("codex did not confirm turn/interrupt", { threadId, turnId, err: String(err) }));
  }

  /**
   * A turn that ended on our side first (a model error, an abandoned stop) may still be
   * running in Codex, and `turn/start` on a busy thread would steer it instead of starting.
   */
  private async settleLeftoverTurn(live: LiveAppServer, threadId: string): Promise<void> {
    const leftover = live.activeTurn(threadId);
    if (!leftover) return;
    this.interrupt(live, threadId, leftover);
    if (!(await live.waitIdle(threadId, this.deps.interruptTimeoutMs))) {
      this.deps.logger.warn("a previous codex turn is still running; starting anyway", { threadId, turnId: leftover });
    }
  }
}

function failure(code: TurnErrorCode, err: unknown): TurnErrorEvent {
  return { type: "turn_error", code, message: err instanceof Error ? err.message : String(err) };
}

/** Fault → stable turn_error code (README, "Codex"). */
function codeFor(err: unknown, fallback: TurnErrorCode): TurnErrorCode {
  if (err instanceof AppServerExited) return "codex_exited";
  if (err instanceof JsonRpcTimeout) return "codex_timeout";
  return fallback;
}

import type { MessageOut, QuestionAnsweredEvent, QuestionEvent, TurnDoneEvent, TurnErrorEvent } from "@coffer/protocol";
import type { AgentAdapter } from "../ports.js";
import type { TurnQuestions } from "./turn-questions.js";

/** Why the engine stopped a turn it did not see finish. */
export type StopReason = "interrupt" | "discard" | "timeout" | "shutdown" | "unreachable";

/** COFFER_TURN_RETRY_GIVE_UP's default (docs/decisions.md, "Retries end a hopeless turn"). */
export const DEFAULT_RETRY_GIVE_UP = 6;

export interface TurnTimings {
  /** At most one content write per window, never one per delta. */
  readonly flushIntervalMs: number;
  /** No agent output for this long ends the turn as `turn_timeout`. */
  readonly watchdogMs: number;
  /** After asking an adapter to stop, how long before we stop waiting for it. */
  readonly stopDeadlineMs: number;
  /**
   * This many consecutive `retrying` events (no output between them) end the turn as
   * `model_unreachable`; 0 = leave it to the agent and the watchdog. Default DEFAULT_RETRY_GIVE_UP.
   */
  readonly retryGiveUp?: number;
}

export const ABANDONED = Symbol("abandoned");

/** Where a steered message landed in the timeline (turn-runner's split). */
export interface SteerSplit {
  readonly userMessage: MessageOut;
  /** Null when the turn had already ended: the message simply follows its reply. */
  readonly assistantMessageId: string | null;
}

export class ActiveTurn {
  readonly controller = new AbortController();
  stopReason: StopReason | null = null;
  /** Set once the turn is on its bus (turn_start published). */
  questions: TurnQuestions | null = null;
  /** The terminal the turn ended with, once it has (the engine parks the queue on plan_limit). */
  outcome: TurnDoneEvent | TurnErrorEvent | null = null;
  done: Promise<void> = Promise.resolve();
  /** Set by the engine once the adapter is built: what a steer goes through. */
  adapter: AgentAdapter | null = null;
  /** Set by runTurn while it consumes events: closes the reply so far and continues in a new one. */
  split: ((text: string, clientId: string | null, voice?: boolean) => SteerSplit) | null = null;
  /** Set by runTurn while it owns the reply: a question asked or closed becomes part of its content. */
  foldQuestion: ((event: QuestionEvent | QuestionAnsweredEvent) => void) | null = null;
  /**
   * Set by runTurn while it owns the reply: the assistant row being written now (a steer moves it
   * to the next row). Where a file the agent shares joins the reply; null once the turn has ended.
   */
  replyId: string | null = null;
  /** Steers wait for each other: two at once must land in the order they were sent. */
  steering: Promise<unknown> = Promise.resolve();
  private abandoned = false;
  private onAbandon: (() => void) | null = null;

  constructor(
    readonly turnId: string,
    readonly conversationId: string,
    readonly clientId: string | null,
  ) {}

  stop(reason: StopReason, deadlineMs: number): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.controller.abort(reason);
    setTimeout(() => {
      this.abandoned = true;
      this.onAbandon?.();
    }, deadlineMs).unref();
  }

  /** Await the adapter's next step, unless we have stopped waiting for it. */
  next<T>(step: Promise<T>): Promise<T | typeof ABANDONED> {
    if (this.abandoned) return Promise.resolve(ABANDONED);
    return new Promise((resolve, reject) => {
      this.onAbandon = () => resolve(ABANDONED);
      step.then(resolve, reject);
    });
  }
}

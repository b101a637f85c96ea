import {
  foldContent,
  type AgentEvent,
  type ChatEvent,
  type ContentBlock,
  type MessageOut,
  type PendingPreview,
  type Question,
  type QueueHold,
  type RetryingEvent,
  type TurnFailureCode,
} from "@coffer/protocol";

/** Why a turn failed, as a turn_error event or a failed reply's `error` says. */
export interface TurnFailure {
  readonly code: TurnFailureCode;
  readonly message: string;
}

export type TurnPhase = "streaming" | "done" | "failed";

/** The agent's open question: the turn is waiting for the owner, not thinking. */
export interface OpenQuestion {
  readonly questionId: string;
  readonly questions: readonly Question[];
}

/** A turn seen on the live bus, kept until the persisted thread holds its settled reply. */
export interface LiveTurn {
  readonly turnId: string;
  readonly clientId: string | null;
  readonly userMessage: MessageOut;
  readonly assistantMessageId: string;
  readonly blocks: readonly ContentBlock[];
  readonly phase: TurnPhase;
  readonly stopReason: string | null;
  readonly model: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly error: TurnFailure | null;
  readonly question: OpenQuestion | null;
  /** The agent's latest retry notice, until its next output: shown instead of "Thinking". */
  readonly retrying: RetryingEvent | null;
}

export interface LiveView {
  readonly turns: readonly LiveTurn[];
  /** null until the bus has told us (then the conversation row's `running` applies). */
  readonly running: boolean | null;
  readonly pending: readonly PendingPreview[];
  readonly paused: boolean;
  /** Set while the queue is parked on a plan limit until its reset. */
  readonly hold: QueueHold | null;
  readonly queueKnown: boolean;
  /**
   * A turn error no reply in the thread shows (a queued message that could not start), for
   * the banner; cleared by the next turn_start. A failed reply says why in its own footer,
   * next to its Retry, so its error is not repeated here.
   */
  readonly error: TurnFailure | null;
  /** Bumped on every `resync`: the page refetches messages when it changes. */
  readonly resyncs: number;
  readonly deleted: boolean;
  /**
   * How each turn seen this session ended, by assistant message id, until the refetched
   * rows (which carry stop_reason and error) take over.
   */
  readonly outcomes: Readonly<Record<string, TurnOutcome>>;
  /** The latest steer the running turn could not take (its text went to the queue's head). */
  readonly steerFallback: { readonly text: string; readonly reason: string } | null;
  /** Questions this page answered second (409): their kept card says this page's answer was not sent. */
  readonly lostAnswers: readonly string[];
}

export interface TurnOutcome {
  readonly stopReason: string | null;
  readonly error: TurnFailure | null;
}

export const EMPTY_VIEW: LiveView = {
  turns: [],
  running: null,
  pending: [],
  paused: false,
  hold: null,
  queueKnown: false,
  error: null,
  resyncs: 0,
  deleted: false,
  outcomes: {},
  steerFallback: null,
  lostAnswers: [],
};

function assertNever(x: never): never {
  throw new Error(`unhandled event ${JSON.stringify(x)}`);
}

/** Replace the streaming (last) turn through `f`; events outside a turn change nothing. */
function withCurrent(view: LiveView, f: (t: LiveTurn) => LiveTurn): LiveView {
  const last = view.turns[view.turns.length - 1];
  if (!last || last.phase !== "streaming") return view;
  const next = f(last);
  return next === last ? view : { ...view, turns: [...view.turns.slice(0, -1), next] };
}

function withOutcome(view: LiveView, outcome: TurnOutcome): LiveView {
  const last = view.turns[view.turns.length - 1];
  if (!last || last.phase !== "streaming") return view;
  return { ...view, outcomes: { ...view.outcomes, [last.assistantMessageId]: outcome } };
}

/** Grow the streaming turn's blocks with the same fold the daemon persists (protocol's foldContent). */
function withContent(view: LiveView, event: AgentEvent): LiveView {
  return withCurrent(view, (t) => {
    const blocks = foldContent(t.blocks, event);
    return blocks === t.blocks && !t.retrying ? t : { ...t, blocks, retrying: null };
  });
}

/** Fold one live event into the view. Pure; every event type is handled. */
export function applyEvent(view: LiveView, event: ChatEvent): LiveView {
  switch (event.type) {
    case "turn_start": {
      const turn: LiveTurn = {
        turnId: event.turn_id,
        clientId: event.client_id,
        userMessage: event.user_message,
        assistantMessageId: event.assistant_message_id,
        blocks: [],
        phase: "streaming",
        stopReason: null,
        model: null,
        promptTokens: null,
        completionTokens: null,
        error: null,
        question: null,
        retrying: null,
      };
      // A replay (after resync) re-announces a turn we may hold already: start it afresh.
      const turns = view.turns.filter((t) => t.turnId !== event.turn_id && t.phase !== "streaming");
      return { ...view, turns: [...turns, turn], running: true, error: null, steerFallback: null };
    }
    case "text_delta":
    case "tool_call":
    case "tool_result":
      return withContent(view, event);
    case "retrying":
      return withCurrent(view, (t) => ({ ...t, retrying: event }));
    case "plan_limits":
    case "context_usage":
      return view;
    case "turn_done":
      return {
        ...withCurrent(withOutcome(view, { stopReason: event.stop_reason, error: null }), (t) => ({
          ...t,
          question: null,
          retrying: null,
          phase: "done",
          stopReason: event.stop_reason,
          model: event.model,
          promptTokens: event.prompt_tokens,
          completionTokens: event.completion_tokens,
        })),
        running: false,
      };
    case "turn_error": {
      const error = { code: event.code, message: event.message };
      const settled = withCurrent(withOutcome(view, { stopReason: null, error }), (t) => ({ ...t, phase: "failed", error, question: null, retrying: null }));
      return { ...settled, running: false, error: settled === view ? error : null };
    }
    // Into the reply where it was asked (the daemon stores the same fold), and the turn waits for the owner.
    case "question":
      return withCurrent(view, (t) => ({ ...t, blocks: foldContent(t.blocks, event), question: { questionId: event.question_id, questions: event.questions } }));
    case "question_answered": {
      // Closed where it was asked: the running reply, or one a steer has closed since.
      const turns = view.turns.map((t) => {
        const blocks = foldContent(t.blocks, event);
        const question = t.question?.questionId === event.question_id ? null : t.question;
        return blocks === t.blocks && question === t.question ? t : { ...t, blocks, question };
      });
      return turns.every((t, i) => t === view.turns[i]) ? view : { ...view, turns };
    }
    case "steered": {
      // The reply so far is closed and the same turn continues after the steered message.
      const settled = withCurrent(withOutcome(view, { stopReason: "steered", error: null }), (t) => ({
        ...t,
        phase: "done",
        stopReason: "steered",
      }));
      const last = view.turns[view.turns.length - 1];
      const next: LiveTurn = {
        turnId: event.turn_id,
        clientId: null,
        userMessage: event.user_message,
        assistantMessageId: event.assistant_message_id,
        blocks: [],
        phase: "streaming",
        stopReason: null,
        model: last?.model ?? null,
        promptTokens: null,
        completionTokens: null,
        error: null,
        question: null,
        retrying: null,
      };
      return { ...settled, turns: [...settled.turns, next], running: true };
    }
    case "steer_fallback":
      return { ...view, steerFallback: { text: event.text, reason: event.reason } };
    case "queue_changed":
      return { ...view, pending: event.pending, paused: event.paused, hold: event.hold ?? null, queueKnown: true };
    case "resync":
      // The replay that follows rebuilds the in-flight turn; settled turns stay until reconciled.
      return { ...view, turns: view.turns.filter((t) => t.phase !== "streaming"), running: null, resyncs: view.resyncs + 1 };
    case "conversation_deleted":
      return { ...view, deleted: true, running: false };
    default:
      return assertNever(event);
  }
}

/** Drop settled turns the persisted thread now holds (by their settled assistant message). */
export function reconcile(view: LiveView, persisted: ReadonlyMap<string, MessageOut>): LiveView {
  const turns = view.turns.filter((t) => {
    if (t.phase === "streaming") return true;
    const m = persisted.get(t.assistantMessageId);
    return !m || m.status === "streaming";
  });
  return turns.length === view.turns.length ? view : { ...view, turns };
}

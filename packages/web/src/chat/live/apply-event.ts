import {
  type AttachmentOut,
  foldContent,
  hasOpenTool,
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
  /**
   * A steer closed this reply while one of its tool calls ran: it keeps taking the turn's
   * events until the call's result is in, then it is done (steered). The daemon's runner
   * applies the same rule (docs/decisions.md, "Steering keeps one tool card").
   */
  readonly waitsOnTool: boolean;
  /** A steer came before this reply said anything: its row is gone, and so is it. */
  readonly removed: boolean;
  /** Files the agent shared into this reply (coffer__share_file), in order; the row keeps them too. */
  readonly attachments: readonly AttachmentOut[];
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

/**
 * Grow the streaming turn's blocks with the same fold the daemon persists (protocol's
 * foldContent). A reply a steer left waiting on its tool takes the event first, and is done
 * (steered) once none of its calls is open.
 */
function withContent(view: LiveView, event: AgentEvent): LiveView {
  const at = view.turns.findIndex((t) => t.waitsOnTool && t.phase === "streaming");
  if (at < 0) {
    return withCurrent(view, (t) => {
      const blocks = foldContent(t.blocks, event);
      return blocks === t.blocks && !t.retrying ? t : { ...t, blocks, retrying: null };
    });
  }
  const held = view.turns[at]!;
  const blocks = foldContent(held.blocks, event);
  const settled = !hasOpenTool(blocks);
  const next: LiveTurn = settled ? { ...held, blocks, waitsOnTool: false, phase: "done", stopReason: "steered" } : { ...held, blocks };
  const turns = view.turns.slice();
  turns[at] = next;
  const outcomes = settled ? { ...view.outcomes, [held.assistantMessageId]: { stopReason: "steered", error: null } } : view.outcomes;
  return { ...view, turns, outcomes };
}

/** The turn ended: a reply still waiting on its tool ends as the turn did. */
function settleWaiting(view: LiveView, f: (t: LiveTurn) => LiveTurn, outcome: TurnOutcome): LiveView {
  if (!view.turns.some((t) => t.waitsOnTool && t.phase === "streaming")) return view;
  let outcomes = view.outcomes;
  const turns = view.turns.map((t) => {
    if (!t.waitsOnTool || t.phase !== "streaming") return t;
    outcomes = { ...outcomes, [t.assistantMessageId]: outcome };
    return { ...f(t), waitsOnTool: false };
  });
  return { ...view, turns, outcomes };
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
        waitsOnTool: false,
        removed: false,
        attachments: [],
      };
      // A replay (after resync) re-announces a turn we may hold already: start it afresh.
      const turns = view.turns.filter((t) => t.turnId !== event.turn_id && t.phase !== "streaming");
      return { ...view, turns: [...turns, turn], running: true, error: null, steerFallback: null };
    }
    case "text_delta":
    case "tool_call":
    case "tool_result":
    case "notice":
      return withContent(view, event);
    case "retrying":
      return withCurrent(view, (t) => ({ ...t, retrying: event }));
    case "plan_limits":
    case "context_usage":
      return view;
    case "turn_done": {
      const ended = (t: LiveTurn): LiveTurn => ({ ...t, question: null, retrying: null, phase: "done", stopReason: event.stop_reason });
      const settled = settleWaiting(view, ended, { stopReason: event.stop_reason, error: null });
      return {
        ...withCurrent(withOutcome(settled, { stopReason: event.stop_reason, error: null }), (t) => ({
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
    }
    case "turn_error": {
      const error = { code: event.code, message: event.message };
      const waited = settleWaiting(view, (t) => ({ ...t, phase: "failed", error, question: null, retrying: null }), { stopReason: null, error });
      const settled = withCurrent(withOutcome(waited, { stopReason: null, error }), (t) => ({ ...t, phase: "failed", error, question: null, retrying: null }));
      // Shown once: in the reply that failed; the banner only when no reply holds it.
      return { ...settled, running: false, error: settled === view ? error : null };
    }
    case "question": {
      // Into the reply where it was asked (the daemon stores the same fold) — the reply a steer
      // left waiting on its tool, when there is one — and the turn waits for the owner.
      const question = { questionId: event.question_id, questions: event.questions };
      const ask = (t: LiveTurn): LiveTurn => ({ ...t, blocks: foldContent(t.blocks, event), question });
      const held = view.turns.findIndex((t) => t.waitsOnTool && t.phase === "streaming");
      if (held < 0) return withCurrent(view, ask);
      return { ...view, turns: view.turns.map((t, i) => (i === held ? ask(t) : t)) };
    }
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
      // The steered message follows the reply so far, and the same turn continues after it. What
      // became of the reply so far is the daemon's word (previous_state), not guessed here.
      const previous = event.previous_assistant_message_id;
      const outcomes = event.previous_state === "running_tool" ? view.outcomes : { ...view.outcomes, [previous]: { stopReason: "steered", error: null } };
      // An open question stays open: with the reply that waits on its tool, else it moves on
      // with the turn to the next reply (a Codex question is no tool call of the reply).
      let carried: OpenQuestion | null = null;
      const turns = view.turns.map((t): LiveTurn => {
        if (t.assistantMessageId !== previous || t.phase !== "streaming") return t;
        if (event.previous_state === "running_tool") return { ...t, waitsOnTool: true, retrying: null };
        carried = t.question;
        return { ...t, phase: "done", stopReason: "steered", question: null, retrying: null, removed: event.previous_state === "removed" };
      });
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
        question: carried,
        retrying: null,
        waitsOnTool: false,
        removed: false,
        attachments: [],
      };
      return { ...view, outcomes, turns: [...turns, next], running: true };
    }
    case "file_shared": {
      // Into the reply it was shared into (a replay after resync may repeat it: kept once).
      const turns = view.turns.map((t) =>
        t.assistantMessageId !== event.message_id || t.attachments.some((a) => a.id === event.attachment.id)
          ? t
          : { ...t, attachments: [...t.attachments, event.attachment] },
      );
      return turns.every((t, i) => t === view.turns[i]) ? view : { ...view, turns };
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
    // A removed reply has no row to wait for: it goes once its message is in the thread.
    if (t.removed) return !persisted.has(t.userMessage.id);
    const m = persisted.get(t.assistantMessageId);
    return !m || m.status === "streaming";
  });
  return turns.length === view.turns.length ? view : { ...view, turns };
}

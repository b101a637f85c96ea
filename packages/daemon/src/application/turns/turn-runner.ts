import {
  foldContent,
  hasOpenTool,
  isTerminalEvent,
  retryAsCounted,
  type AgentEvent,
  type ContentBlock,
  type RetryingEvent,
  type TurnDoneEvent,
  type TurnErrorEvent,
} from "@coffer/protocol";
import type { AuditSink } from "../audit-log.js";
import type { AgentAdapter, Clock, ConversationStore, IdGenerator, Logger, MessageStore, Transactor, TurnInput } from "../ports.js";
import type { PlanLimitsBook } from "../limits/plan-limits-book.js";
import type { ConversationBus } from "./live-bus.js";
import type { ContextUsageStore } from "./context-usage.js";
import { SecretScrubber } from "../secrets/secret-scrubber.js";
import { AgentOutputScrubber } from "../secrets/agent-output-scrubber.js";
import { ABANDONED, DEFAULT_RETRY_GIVE_UP, type ActiveTurn, type TurnTimings } from "./active-turn.js";
import { errorEvent, steeredFinal, terminalFor } from "./turn-terminal.js";
import { TurnTimeline } from "./turn-timeline.js";

/** Stands in when no scrubber is wired (unit rigs): knows no secret, costs nothing. */
const NO_SECRETS = new SecretScrubber();

/** A reply closed by a steer while one of its tool calls still ran: it takes events until the call ends. */
interface HeldReply {
  readonly id: string;
  content: readonly ContentBlock[];
  dirty: boolean;
}

export interface RunTurnDeps {
  readonly tx: Transactor;
  readonly conversations: Pick<ConversationStore, "touchConversation">;
  /** The reply's rows; the steered user row and the next reply go through the timeline. */
  readonly messages: Pick<MessageStore, "insertMessage" | "updateMessageContent" | "updateClosedQuestion" | "finalizeMessage" | "deleteMessage" | "getMessage">;
  /** Where `chat_turn_completed` is written, in the transaction that finalises the reply. */
  readonly audit: AuditSink;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly timings: TurnTimings;
  /** Where the agents' plan-limit reports go (GET /chat/agents reads them). */
  readonly limits?: PlanLimitsBook;
  /** Where each conversation's context usage goes (GET …/context reads it). */
  readonly contextUsage?: ContextUsageStore;
  /** Known credential values are scrubbed from every agent event as it enters the turn. */
  readonly scrubber?: SecretScrubber;
}

export interface TurnRecord {
  readonly turn: ActiveTurn;
  readonly adapter: AgentAdapter;
  readonly input: TurnInput;
  readonly assistantMessageId: string;
  readonly bus: ConversationBus;
  readonly fallbackModel: string | null;
}

/**
 * Runs one turn to its single terminal event: feeds the adapter's events to the bus,
 * flushes content on a timer, and finalises the assistant row whatever happens.
 */
export async function runTurn(deps: RunTurnDeps, record: TurnRecord): Promise<void> {
  const { tx, conversations, messages, audit, clock, ids, logger, timings } = deps;
  const { turn, adapter, input, bus } = record;
  const timeline = new TurnTimeline(messages, ids);
  let messageId = record.assistantMessageId;
  let content: readonly ContentBlock[] = [];
  let dirty = false;
  let flushes = 0;
  let adapterTerminal: TurnDoneEvent | TurnErrorEvent | null = null;
  let failure: TurnErrorEvent | null = null;
  // A retry notice is activity (it refreshes the watchdog), but only this many in a row.
  const giveUpAfter = timings.retryGiveUp ?? DEFAULT_RETRY_GIVE_UP;
  let retryStreak = 0;
  let gaveUp: { attempts: number; last: RetryingEvent } | null = null;
  // The one entry point for the agent's output: nothing below sees an unscrubbed event, so the
  // stored reply, the live stream, Telegram and alerts all get the same scrubbed text.
  const output = new AgentOutputScrubber(deps.scrubber ?? NO_SECRETS);
  const emit = (event: AgentEvent): void => {
    bus.publish(event);
    // `held` is set by turn.split, which runs between awaits: TypeScript cannot see that.
    const open = held as HeldReply | null;
    if (open) {
      open.content = foldContent(open.content, event);
      open.dirty = true;
      if (!hasOpenTool(open.content)) closeHeld();
      return;
    }
    content = foldContent(content, event);
    dirty = true;
  };
  /** A tail held back as the possible start of a secret goes out before anything else does. */
  const releaseHeld = (): void => {
    const tail = output.drain();
    if (tail) emit(tail);
  };

  const flush = (): void => {
    if (turn.stopReason === "discard") return;
    const open = held as HeldReply | null;
    if (open?.dirty) {
      open.dirty = false;
      flushes += 1;
      messages.updateMessageContent(open.id, open.content);
    }
    if (!dirty) return;
    dirty = false;
    flushes += 1;
    messages.updateMessageContent(messageId, content);
  };
  turn.replyId = messageId;
  const flushTimer = setInterval(flush, timings.flushIntervalMs);
  // Waiting for the owner's answer is not agent silence: the clock restarts when the question closes.
  const watchdog = setTimeout(() => {
    if (turn.questions?.waiting) return;
    turn.stop("timeout", timings.stopDeadlineMs);
  }, timings.watchdogMs);
  if (turn.questions) turn.questions.onSettle = () => watchdog.refresh();

  // A steered message sits between the reply so far and the rest of the turn (docs/decisions.md,
  // "Steering splits the reply" and "Steering keeps one tool card"): the user message follows the
  // reply so far and the same turn continues in a new assistant row. The reply so far is closed
  // as `steered` — unless a tool call in it is still running: then it stays open and takes the
  // turn's events until that tool's result is in (`held`), so the call and its real outcome stay
  // one card and the steered message follows it. An empty reply so far is removed, not kept as a gap.
  let held: HeldReply | null = null;
  const closeHeld = (): void => {
    if (!held) return;
    messages.finalizeMessage(held.id, steeredFinal(held.content, adapter.model ?? record.fallbackModel));
    held = null;
    turn.replyId = messageId;
  };
  turn.split = (text, clientId, voice = false) => {
    releaseHeld(); // the reply so far is closed: all of it
    const now = clock.now();
    const model = adapter.model ?? record.fallbackModel;
    const previousId = messageId;
    // While an earlier reply waits on its tool, every event goes there: this row is still empty.
    const previousState = content.length === 0 ? "removed" : hasOpenTool(content) ? "running_tool" : "closed";
    const split = tx.transaction(() => {
      if (previousState === "removed") messages.deleteMessage(previousId);
      else if (previousState === "closed") messages.finalizeMessage(previousId, steeredFinal(content, model));
      else held = { id: previousId, content, dirty };
      const userMessage = timeline.userMessage(turn.conversationId, text, clientId, now, true, [], voice);
      const next = timeline.streamingReply(turn.conversationId, model, now);
      conversations.touchConversation(turn.conversationId, now);
      return { userMessage, assistantMessageId: next.id };
    });
    bus.publish({
      type: "steered",
      turn_id: turn.turnId,
      user_message: split.userMessage,
      previous_assistant_message_id: previousId,
      previous_state: previousState,
      assistant_message_id: split.assistantMessageId,
    });
    messageId = split.assistantMessageId;
    // While the reply so far waits on its tool, the agent's output (and a file it shares) goes there.
    turn.replyId = (held as HeldReply | null)?.id ?? messageId;
    content = [];
    dirty = false;
    return split;
  };

  // Which reply each question was asked in: a steer may have closed that reply since.
  const askedIn = new Map<string, string>();
  turn.foldQuestion = (event) => {
    if (event.type === "question") askedIn.set(event.question_id, messageId);
    const at = askedIn.get(event.question_id) ?? messageId;
    if (at !== messageId) {
      // Answered after a steer split the reply: the closed reply keeps its question, answered.
      const stored = messages.getMessage(at);
      if (stored) messages.updateClosedQuestion(at, foldContent(stored.content, event));
      return;
    }
    const next = foldContent(content, event);
    if (next === content) return;
    content = next;
    dirty = true;
    // The owner's answer is worth keeping at once, not at the next flush.
    if (event.type === "question_answered") flush();
  };

  const iterator = adapter.runTurn(input, turn.controller.signal)[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await turn.next(iterator.next());
      if (next === ABANDONED || next.done) break;
      if (turn.stopReason === "discard") break;
      const raw: AgentEvent = next.value;
      watchdog.refresh();
      if (raw.type === "text_delta") {
        retryStreak = 0;
        const text = output.text(raw.text);
        if (text === raw.text) emit(raw);
        else if (text) emit({ type: "text_delta", text });
        continue;
      }
      releaseHeld();
      const event = output.event(raw);
      if (isTerminalEvent(event)) {
        adapterTerminal = event;
        break;
      }
      if (event.type === "plan_limits") {
        deps.limits?.record(input.conversation.agentKey, event, clock.now());
        continue;
      }
      if (event.type === "context_usage") {
        deps.contextUsage?.record(turn.conversationId, event, clock.now());
        continue;
      }
      if (event.type === "retrying") {
        retryStreak += 1;
        // Every surface's "attempt n of m" is the give-up this runner enforces (one source).
        bus.publish(retryAsCounted(event, retryStreak, giveUpAfter));
        if (giveUpAfter > 0 && retryStreak >= giveUpAfter && !turn.stopReason) {
          gaveUp = { attempts: retryStreak, last: event };
          logger.warn("agent keeps retrying the model API; giving up", { conversation: turn.conversationId, attempts: retryStreak });
          turn.stop("unreachable", timings.stopDeadlineMs);
        }
        continue;
      }
      retryStreak = 0;
      emit(event);
    }
  } catch (err) {
    failure = errorEvent(err, output);
    if (!turn.stopReason) logger.warn("agent adapter failed", { conversation: turn.conversationId, err: String(err) });
  } finally {
    turn.split = null;
    turn.replyId = null;
    clearInterval(flushTimer);
    if (turn.questions) turn.questions.onSettle = null;
    clearTimeout(watchdog);
    turn.questions?.cancelAll();
    // Folded above (a question still open is kept as cancelled); nothing joins this reply now.
    turn.foldQuestion = null;
    // Let the adapter clean up (kill its process) without waiting on a stuck one.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }

  if (turn.stopReason === "discard") return;
  releaseHeld();

  const terminal = terminalFor(turn, adapterTerminal, failure, timings, gaveUp);
  const model = (terminal.type === "turn_done" ? terminal.model : null) ?? adapter.model ?? record.fallbackModel;
  const final = {
    content,
    status: terminal.type === "turn_done" ? ("complete" as const) : ("failed" as const),
    modelId: model,
    promptTokens: terminal.type === "turn_done" ? terminal.prompt_tokens : null,
    completionTokens: terminal.type === "turn_done" ? terminal.completion_tokens : null,
    stopReason: terminal.type === "turn_done" ? terminal.stop_reason : null,
    error: terminal.type === "turn_error" ? { code: terminal.code, message: terminal.message } : null,
  };
  const now = clock.now();
  tx.transaction(() => {
    // A reply still waiting on its tool when the turn ended ends as the turn did.
    const open = held as HeldReply | null;
    if (open) messages.finalizeMessage(open.id, { ...final, content: open.content });
    held = null;
    messages.finalizeMessage(messageId, final);
    conversations.touchConversation(turn.conversationId, now);
    audit(
      "agent",
      "chat_turn_completed",
      {
        conversation_id: turn.conversationId,
        turn_id: turn.turnId,
        model_id: model,
        status: final.status,
        stop_reason: terminal.type === "turn_done" ? terminal.stop_reason : terminal.code,
        prompt_tokens: final.promptTokens,
        completion_tokens: final.completionTokens,
        content_flushes: flushes,
      },
      now,
    );
    // The terminal event goes out inside the same transaction: what a listener writes on hearing
    // it (a channel relay queues the reply in its outbox) commits with the turn's completion, or
    // neither does. Published after the commit, a kill -9 between the two left a turn that reads
    // complete (so restart recovery says nothing) whose reply was never queued.
    turn.outcome = terminal;
    try {
      bus.publish(terminal.type === "turn_done" ? { ...terminal, model } : terminal);
    } catch (err) {
      // A listener's failure is its own: the turn's completion still commits.
      logger.warn("a turn's end could not be relayed", { conversation: turn.conversationId, err: String(err) });
    }
  });
}

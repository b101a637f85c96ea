import type { AlertKind, AlertSettingsOut, Question, QuestionSettingsOut, TurnDoneEvent, TurnErrorEvent } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import type { Logger } from "../ports.js";
import type { ConversationListEvents } from "../turns/list-events.js";
import type { StopReason } from "../turns/active-turn.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import type { AskedNotice, HoldNotice, TurnAlerts } from "../turns/turn-alert-ports.js";
import { QuestionEscalation, type EscalationStep } from "./question-escalation.js";

export type { HoldNotice } from "../turns/turn-alert-ports.js";

/** One thing the owner may want to hear about, whichever surface tells them. */
export interface OwnerAlert {
  readonly conversation: Conversation;
  readonly kind: AlertKind;
  /** The failure's message or the question's text; null for a finished turn. */
  readonly detail: string | null;
  /** The question this alert is about (question_asked only). */
  readonly questionId?: string;
  /** The "still waiting" reminder of a question still open (issue 27). */
  readonly reminder?: boolean;
}

/** A question's alerts come down: it was answered (`by` the surface) or its turn ended (`by` null). */
export interface AlertWithdrawal {
  readonly conversation: Conversation;
  readonly questionId: string;
  readonly by: string | null;
  /** Whether the phone had been told of it (only then is a line there worth sending). */
  readonly phoned: boolean;
}

/** A surface beyond the page (Telegram today): alerts pass the owner's settings first. */
export interface AlertSink {
  readonly surface: Exclude<keyof AlertSettingsOut, "browser">;
  alert(alert: OwnerAlert): void;
  holdChanged?(notice: HoldNotice): void;
  withdrawn?(withdrawal: AlertWithdrawal): void;
}

/** How open questions escalate (issue 27); without it the phone hears at once and nothing is reminded. */
export interface EscalationDeps {
  readonly alarms: AlarmClock;
  readonly settings: { get(): QuestionSettingsOut };
}

/**
 * What a turn's end means for the owner: a turn they stopped (or deleted, or the daemon's
 * own shutdown) alerts nobody — they know; every other end is "finished" or "failed".
 */
export function alertKindFor(outcome: TurnDoneEvent | TurnErrorEvent | null, stopReason: StopReason | null): AlertKind | null {
  if (!outcome || stopReason === "interrupt" || stopReason === "discard" || stopReason === "shutdown") return null;
  if (outcome.type === "turn_error") return "turn_failed";
  return outcome.stop_reason === "interrupted" ? null : "turn_finished";
}

/** The first question's text, on one line: what a notification has room for. */
export function questionDetail(questions: readonly Question[]): string | null {
  const first = questions[0];
  if (!first) return null;
  const text = first.text.replace(/\s+/g, " ").trim();
  return questions.length > 1 ? `${text} (+${questions.length - 1} more)` : text;
}

/**
 * Fans the owner's alerts out: to the page over the conversation-list stream (the page
 * decides whether the owner is looking) and to every registered sink, each filtered by the
 * owner's alert settings, read at the moment of the alert. A sink's failure stays its own.
 */
export class OwnerAlerts implements TurnAlerts {
  private readonly sinks = new Set<AlertSink>();
  private readonly escalation: QuestionEscalation | null;

  constructor(
    private readonly settings: { get(): AlertSettingsOut },
    private readonly listEvents: ConversationListEvents,
    private readonly logger: Logger,
    escalation?: EscalationDeps,
  ) {
    this.escalation = escalation
      ? new QuestionEscalation(escalation.alarms, escalation.settings, {
          phone: (step) => this.guard(() => this.toSinks(questionAlert(step, false))),
          remind: (step) => this.guard(() => this.raise(questionAlert(step, true))),
        })
      : null;
  }

  addSink(sink: AlertSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  turnEnded(conversation: Conversation, outcome: TurnDoneEvent | TurnErrorEvent | null, stopReason: StopReason | null): void {
    const kind = alertKindFor(outcome, stopReason);
    if (!kind) return;
    this.raise({ conversation, kind, detail: outcome?.type === "turn_error" ? outcome.message : null });
  }

  /**
   * The page hears at once; the phone and the reminder follow the owner's question settings
   * (question-escalation.ts), unless no escalation is wired (then the phone hears at once too).
   */
  questionAsked(conversation: Conversation, asked: AskedNotice): void {
    const step: EscalationStep = { conversation, questionId: asked.questionId, detail: questionDetail(asked.questions) };
    if (!this.escalation) return this.raise(questionAlert(step, false));
    this.toPage(questionAlert(step, false));
    this.escalation.opened(conversation, asked, step.detail);
  }

  /** Answered anywhere, or its turn ended: nothing more is armed, and every surface takes its alert down. */
  questionClosed(conversation: Conversation, questionId: string, by: string | null): void {
    const closed = this.escalation?.closed(conversation.id, questionId) ?? null;
    this.listEvents.emit({ type: "conversation_alert_withdrawn", conversation_id: conversation.id, question_id: questionId, by });
    const withdrawal: AlertWithdrawal = { conversation, questionId, by, phoned: closed ? closed.phoned : !this.escalation };
    for (const sink of this.sinks) this.guard(() => sink.withdrawn?.(withdrawal));
  }

  /** How many open questions still have an escalation step armed. */
  get escalating(): number {
    return this.escalation?.size ?? 0;
  }

  holdChanged(notice: HoldNotice): void {
    for (const sink of this.sinks) this.guard(() => sink.holdChanged?.(notice));
  }

  private raise(alert: OwnerAlert): void {
    this.toPage(alert);
    this.toSinks(alert);
  }

  private toPage(alert: OwnerAlert): void {
    if (!this.settings.get().browser[alert.kind]) return;
    this.listEvents.emit({
      type: "conversation_alert",
      conversation_id: alert.conversation.id,
      title: alert.conversation.title,
      kind: alert.kind,
      detail: alert.detail,
      ...(alert.questionId ? { question_id: alert.questionId } : {}),
      ...(alert.reminder ? { reminder: true } : {}),
    });
  }

  private toSinks(alert: OwnerAlert): void {
    const settings = this.settings.get();
    for (const sink of this.sinks) if (settings[sink.surface][alert.kind]) this.guard(() => sink.alert(alert));
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch (err) {
      this.logger.warn("an alert could not be delivered", { err: err instanceof Error ? err.message : String(err) });
    }
  }
}

function questionAlert(step: EscalationStep, reminder: boolean): OwnerAlert {
  return { conversation: step.conversation, kind: "question_asked", detail: step.detail, questionId: step.questionId, ...(reminder ? { reminder: true } : {}) };
}

import type { AlertKind, AlertSettingsOut, Question, TurnDoneEvent, TurnErrorEvent } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import type { Logger } from "../ports.js";
import type { ConversationListEvents } from "../turns/list-events.js";
import type { StopReason } from "../turns/active-turn.js";
import type { HoldNotice, TurnAlerts } from "../turns/turn-alert-ports.js";

export type { HoldNotice } from "../turns/turn-alert-ports.js";

/** One thing the owner may want to hear about, whichever surface tells them. */
export interface OwnerAlert {
  readonly conversation: Conversation;
  readonly kind: AlertKind;
  /** The failure's message or the question's text; null for a finished turn. */
  readonly detail: string | null;
}

/** A surface beyond the page (Telegram today): alerts pass the owner's settings first. */
export interface AlertSink {
  readonly surface: Exclude<keyof AlertSettingsOut, "browser">;
  alert(alert: OwnerAlert): void;
  holdChanged?(notice: HoldNotice): void;
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

  constructor(
    private readonly settings: { get(): AlertSettingsOut },
    private readonly listEvents: ConversationListEvents,
    private readonly logger: Logger,
  ) {}

  addSink(sink: AlertSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  turnEnded(conversation: Conversation, outcome: TurnDoneEvent | TurnErrorEvent | null, stopReason: StopReason | null): void {
    const kind = alertKindFor(outcome, stopReason);
    if (!kind) return;
    this.raise({ conversation, kind, detail: outcome?.type === "turn_error" ? outcome.message : null });
  }

  questionAsked(conversation: Conversation, questions: readonly Question[]): void {
    this.raise({ conversation, kind: "question_asked", detail: questionDetail(questions) });
  }

  holdChanged(notice: HoldNotice): void {
    for (const sink of this.sinks) this.guard(() => sink.holdChanged?.(notice));
  }

  private raise(alert: OwnerAlert): void {
    const settings = this.settings.get();
    if (settings.browser[alert.kind]) {
      this.listEvents.emit({
        type: "conversation_alert",
        conversation_id: alert.conversation.id,
        title: alert.conversation.title,
        kind: alert.kind,
        detail: alert.detail,
      });
    }
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

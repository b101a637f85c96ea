// What the turn engine tells the owner's alerts. Turns own this port and application/alerts
// fills it (OwnerAlerts), so the tie between the two folders points one way: alerts → turns.
import type { Question, QueueHold, TurnDoneEvent, TurnErrorEvent } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import type { StopReason } from "./active-turn.js";

/** A plan-limit hold began (hold set) or ended (hold null; `by` says who lifted it). */
export interface HoldNotice {
  readonly conversation: Conversation;
  readonly hold: QueueHold | null;
  readonly by: "reset" | "owner" | null;
}

/** A question the agent asked the owner, with when (escalation is timed from it). */
export interface AskedNotice {
  readonly questionId: string;
  readonly questions: readonly Question[];
  readonly askedAt: number;
}

/** Told when a turn ends, fails or asks, and when a conversation's queue parks or resumes. */
export interface TurnAlerts {
  turnEnded(conversation: Conversation, outcome: TurnDoneEvent | TurnErrorEvent | null, stopReason: StopReason | null): void;
  questionAsked(conversation: Conversation, asked: AskedNotice): void;
  /** The question closed: answered (`by` the surface) or cancelled with its turn (`by` null). */
  questionClosed(conversation: Conversation, questionId: string, by: string | null): void;
  holdChanged(notice: HoldNotice): void;
}

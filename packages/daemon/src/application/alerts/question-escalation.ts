import type { QuestionSettingsOut } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import type { AskedNotice } from "../turns/turn-alert-ports.js";

const MINUTE = 60_000;

/** One step of a question's escalation, as the fan-out delivers it. */
export interface EscalationStep {
  readonly conversation: Conversation;
  readonly questionId: string;
  readonly detail: string | null;
}

/** What the escalation asks the alert fan-out to do at each step. */
export interface EscalationHooks {
  /** N minutes on and still open: the phone hears of it. */
  phone(step: EscalationStep): void;
  /** M minutes on and still open: the page's alert again, and a "still waiting" line on the phone. */
  remind(step: EscalationStep): void;
}

interface Open {
  step: EscalationStep;
  readonly cancels: (() => void)[];
  /** Whether the phone has been told (so a withdrawal is worth a line there). */
  phoned: boolean;
}

export interface ClosedEscalation {
  readonly step: EscalationStep;
  readonly phoned: boolean;
}

/**
 * Times an open question's escalation on the AlarmClock, by the owner's settings as they are
 * when it is asked: the phone after `phone_after_minutes` (0: at once, synchronously), a
 * reminder after `remind_after_minutes`. Both are timed from when the agent asked, so a late
 * wake-up fires what is due once. Never answers and never drops a question: only its close
 * (an answer on any surface, or its turn ending) cancels what is still armed.
 */
export class QuestionEscalation {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly alarms: AlarmClock,
    private readonly settings: { get(): QuestionSettingsOut },
    private readonly hooks: EscalationHooks,
  ) {}

  opened(conversation: Conversation, asked: AskedNotice, detail: string | null): void {
    const key = keyOf(conversation.id, asked.questionId);
    if (this.open.has(key)) return;
    const { phone_after_minutes: phoneAfter, remind_after_minutes: remindAfter } = this.settings.get();
    const entry: Open = { step: { conversation, questionId: asked.questionId, detail }, cancels: [], phoned: false };
    this.open.set(key, entry);
    this.arm(entry, asked.askedAt + phoneAfter * MINUTE, () => {
      entry.phoned = true;
      this.hooks.phone(entry.step);
    });
    if (remindAfter !== null) {
      this.arm(entry, asked.askedAt + remindAfter * MINUTE, () => {
        entry.phoned = true;
        this.hooks.remind(entry.step);
      });
    }
  }

  /** Cancels what is still armed; what the question had reached, for the withdrawal (null when unknown). */
  closed(conversationId: string, questionId: string): ClosedEscalation | null {
    const key = keyOf(conversationId, questionId);
    const entry = this.open.get(key);
    if (!entry) return null;
    this.open.delete(key);
    for (const cancel of entry.cancels) cancel();
    return { step: entry.step, phoned: entry.phoned };
  }

  /** How many questions are waiting on an escalation step (tests assert none is left behind). */
  get size(): number {
    return this.open.size;
  }

  private arm(entry: Open, when: number, fire: () => void): void {
    // Due already (0 minutes): now, in the asking call, so "at once" means at once on any clock.
    if (when <= this.alarms.now()) return fire();
    entry.cancels.push(this.alarms.at(when, fire));
  }
}

function keyOf(conversationId: string, questionId: string): string {
  return `${conversationId}\u0000${questionId}`;
}

import type { Question, QuestionAnswer } from "@coffer/protocol";
import type { Clock } from "../ports.js";
import type { Courier } from "./courier.js";
import type { BotConnection, EditedMessage } from "./ports.js";
import { applyPick } from "./question-picks.js";
import { closedQuestionText, questionMessage } from "./question-text.js";
import type { ChatThrottle } from "./chat-throttle.js";

/** How many shown questions are remembered (a tap on one older than that finds it closed anyway). */
const KEPT = 100;

export interface QuestionBoardDeps {
  readonly courier: Pick<Courier, "enqueue" | "tryEphemeral" | "sentId">;
  readonly clock: Clock;
  /** The chat's edit throttle, shared with the progress messages: every edit of a chat counts. */
  readonly throttle: ChatThrottle;
  readonly editIntervalMs: number;
  /** The surface this channel answers as (its platform's kind): its own answers are marked ✅. */
  readonly surface: string;
}

interface Shown {
  readonly questionId: string;
  readonly chatId: string;
  readonly threadId: string | null;
  readonly questions: readonly Question[];
  /** What was tapped so far (`pickCode`s: a multi-select's options, or several questions'), while it is open. */
  picks: ReadonlySet<number>;
  /** Set once the question closed: what its message says from then on (no buttons). */
  closed: string | null;
  /** The message as last edited (or sent), to skip an edit that changes nothing. */
  shown: string;
  /** An edit is scheduled or running: further changes ride on it (it reads the newest state). */
  editing: boolean;
  again: boolean;
}

/**
 * The question messages one channel showed, kept in step with the question: a multi-select's
 * picks (its message edited to show them), and the close — buttons withdrawn, the text saying
 * who answered and what. Every edit waits for the chat's throttle and coalesces with the next,
 * so a burst of taps costs one edit per interval, never one per tap.
 */
export class QuestionBoard {
  private readonly shown = new Map<string, Shown>();

  constructor(private readonly deps: QuestionBoardDeps) {}

  /** Sends the question to the chat (durably, like every message), with its buttons where it has any. */
  show(questionId: string, chatId: string, threadId: string | null, questions: readonly Question[]): void {
    const entry: Shown = { questionId, chatId, threadId, questions, picks: new Set(), closed: null, shown: "", editing: false, again: false };
    const message = questionMessage(questionId, questions);
    entry.shown = key(message);
    this.shown.set(questionId, entry);
    if (this.shown.size > KEPT) this.shown.delete(this.shown.keys().next().value!);
    this.deps.courier.enqueue(chatId, threadId, [message], track(questionId));
  }

  /** An open question with toggles shown in `chatId`, for a toggle or Send tap; null if closed or unknown. */
  open(questionId: string, chatId: string): { readonly questions: readonly Question[]; readonly picks: ReadonlySet<number> } | null {
    const entry = this.shown.get(questionId);
    return entry && entry.closed === null && entry.chatId === chatId ? entry : null;
  }

  /** A tap on an open question's toggle (a `pickCode`); its message shows the picks (one edit per throttle slot). */
  toggle(questionId: string, code: number): void {
    const entry = this.shown.get(questionId);
    if (!entry || entry.closed !== null) return;
    entry.picks = applyPick(entry.questions, entry.picks, code);
    this.refresh(entry);
  }

  /** The question closed (answered anywhere, or cancelled): its message loses its buttons and says how. */
  close(questionId: string, answers: readonly QuestionAnswer[] | null, by: string | null): void {
    const entry = this.shown.get(questionId);
    if (!entry || entry.closed !== null) return;
    entry.closed = closedQuestionText(entry.questions, answers, by, this.deps.surface);
    this.refresh(entry);
  }

  /** The owner moved to another chat: the old chat's question messages are not touched again (it gets nothing more). */
  /** Re-pairing: only the new owner chat's question messages may still be edited (the old private chat and the groups whose conversations moved get nothing more). */
  forgetChatsExcept(chatId: string): void {
    for (const [questionId, entry] of this.shown) if (entry.chatId !== chatId) this.shown.delete(questionId);
  }

  private view(entry: Shown): EditedMessage {
    return entry.closed !== null ? { text: entry.closed } : questionMessage(entry.questionId, entry.questions, entry.picks);
  }

  private refresh(entry: Shown): void {
    if (entry.editing) {
      entry.again = true;
      return;
    }
    entry.editing = true;
    const { clock, throttle } = this.deps;
    const wait = throttle.slot(entry.chatId, entry.threadId, clock.now()) - clock.now();
    const go = () => {
      // Runs after every queued message (a tidy-up, even while deliveries back up): by then the question's own message went.
      if (!this.deps.courier.tryEphemeral((conn) => this.edit(conn, entry), true)) this.settle(entry);
    };
    if (wait <= 0) return go();
    setTimeout(go, wait).unref?.();
  }

  private async edit(conn: BotConnection, entry: Shown): Promise<void> {
    const { clock, throttle, editIntervalMs } = this.deps;
    try {
      // Forgotten meanwhile (the owner moved chats): that chat gets nothing more.
      if (this.shown.get(entry.questionId) !== entry) return;
      // Another edit of the chat (a progress message) took the slot meanwhile: wait for the next one.
      if (throttle.slot(entry.chatId, entry.threadId, clock.now()) > clock.now()) {
        entry.again = true;
        return;
      }
      const messageId = this.deps.courier.sentId(track(entry.questionId));
      const message = this.view(entry);
      // Never delivered (refused for good), or already showing this: nothing to edit.
      if (messageId === null || key(message) === entry.shown) return;
      await conn.edit(entry.chatId, messageId, message);
      entry.shown = key(message);
      throttle.used(entry.chatId, entry.threadId, clock.now(), editIntervalMs);
    } finally {
      this.settle(entry);
    }
  }

  private settle(entry: Shown): void {
    entry.editing = false;
    if (!entry.again) return;
    entry.again = false;
    this.refresh(entry);
  }
}

/** The name the courier remembers a question's message by. */
function track(questionId: string): string {
  return `question:${questionId}`;
}

function key(message: EditedMessage): string {
  return JSON.stringify([message.text, message.buttons ?? []]);
}

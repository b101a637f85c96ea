import type { ChatEvent, FileSharedEvent, Question } from "@coffer/protocol";
import { isTerminalEvent, retryingLabel } from "@coffer/protocol";
import { stopButtons } from "./chat-buttons.js";
import { sharedFileMessage } from "./shared-file-text.js";
import type { Clock } from "../ports.js";
import type { Courier } from "./courier.js";
import type { BotConnection, ChatPlatform, OutgoingMessage } from "./ports.js";
import { endLine, progressText, toolSummary, type ToolLine } from "./progress-text.js";
import type { ChatThrottle } from "./chat-throttle.js";
import type { QuestionBoard } from "./question-board.js";

export { ChatThrottle } from "./chat-throttle.js";

/** An agent question the chat may answer with its next message. */
export interface OpenChatQuestion {
  readonly questionId: string;
  readonly questions: readonly Question[];
}

/** How often the status line's clock is refreshed while the agent is quiet. */
const QUIET_REFRESH_MS = 5000;

/**
 * Turns started from a channel's chat carry this client-id prefix, so they are not mirrored back:
 * per channel (not per platform), so no platform's name is written here.
 */
export function phoneClientPrefix(channelId: string): string {
  return `ch:${channelId}:`;
}

export interface RelayDeps {
  /** The client-id prefix of this channel's own messages (phoneClientPrefix): those are not mirrored back. */
  readonly ownClientPrefix: string;
  readonly courier: Courier;
  /** The channel's shown questions: the relay shows a question there, and closes it there. */
  readonly board: QuestionBoard;
  readonly platform: ChatPlatform;
  readonly clock: Clock;
  /** The least time between two progress edits in one chat (Telegram's limits). */
  readonly editIntervalMs: number;
  /** The chat's edit throttle, shared by every relay into that chat. */
  readonly throttle: ChatThrottle;
  /** How many messages wait in the conversation's queue (for the "stopped" line). */
  queued(): number;
  /** The agent's open question (or null once it closed): the chat's next reply may answer it. */
  questionChanged(question: OpenChatQuestion | null): void;
}


/**
 * Relays one turn of a bound conversation to its chat: the desktop's message first (so the
 * phone shows the whole timeline), a live progress message edited in place if the turn
 * outlasts one interval, then the answer as a new message (a new message notifies; an edit
 * does not) and, for a stopped or failed turn, one line saying so.
 */
export class TurnRelay {
  private startedAt = 0;
  private turn: string | null = null;
  private steps = 0;
  private readonly tools: ToolLine[] = [];
  private segment = "";
  /** The agent's latest retry, shown in the progress message until its next output. */
  private retrying: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  /** The live progress message, once sent. */
  private progressId: string | null = null;
  private opened = false;
  private flushing = false;
  private dirtySinceFlush = false;
  private shown = "";
  private done = false;
  /** Files the agent shared into this turn: sent after the answer, in the order shared. */
  private readonly files: FileSharedEvent[] = [];

  constructor(
    private readonly chatId: string,
    private readonly threadId: string | null,
    private readonly deps: RelayDeps,
  ) {}

  /** The turn's working time so far (for /status). */
  elapsedMs(): number {
    return this.deps.clock.now() - this.startedAt;
  }

  get finished(): boolean {
    return this.done;
  }

  /** The relayed turn's id (its Stop button names it), once it started. */
  get turnId(): string | null {
    return this.turn;
  }

  /** Called from the bus, synchronously: cheap, never awaits. */
  deliver(event: ChatEvent): void {
    if (this.done) return;
    switch (event.type) {
      case "turn_start": {
        this.startedAt = this.deps.clock.now();
        this.turn = event.turn_id;
        const clientId = event.client_id ?? "";
        if (!clientId.startsWith(this.deps.ownClientPrefix)) {
          const text = event.user_message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
          this.send([{ text: `(from Coffer) ${text}` }]);
        }
        this.schedule(this.startedAt + this.deps.editIntervalMs);
        return;
      }
      case "steered": {
        // The owner steered the turn from another surface: mirror it; the answer is what follows.
        const text = event.user_message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
        this.send([{ text: `(from Coffer, into the running turn) ${text}` }]);
        this.segment = "";
        return this.dirty();
      }
      case "question": {
        // A new message, so the phone notifies: the agent is waiting for the owner. Options come
        // as buttons (a single choice: one tap answers; a multi-select: toggles and Send).
        this.deps.board.show(event.question_id, this.chatId, this.threadId, event.questions);
        this.deps.questionChanged({ questionId: event.question_id, questions: event.questions });
        return;
      }
      case "question_answered":
        this.deps.questionChanged(null);
        // The question's message loses its buttons and says who answered and what (the page, the
        // CLI, this chat), so the phone does not answer into the void.
        this.deps.board.close(event.question_id, event.answers, event.by ?? null);
        return;
      case "retrying":
        this.retrying = retryingLabel(event);
        return this.dirty();
      case "text_delta":
        this.retrying = null;
        this.segment += event.text;
        return this.dirty();
      case "tool_call":
        this.retrying = null;
        this.steps += 1;
        this.tools.push({ id: event.tool_use_id, name: event.tool_name, summary: toolSummary(event.tool_input), state: "running" });
        // The answer the phone gets is what the agent said after its last tool call.
        this.segment = "";
        return this.dirty();
      case "notice":
        // Coffer's own one line (a lost agent session restarted with the conversation so far): the
        // phone gets it as it comes, as the page shows it above the reply.
        this.send([{ text: `ℹ️ ${event.text}` }]);
        return;
      case "file_shared":
        this.files.push(event);
        return;
      case "tool_result": {
        const line = this.tools.find((t) => t.id === event.tool_use_id);
        if (line) line.state = event.error ? "error" : "ok";
        return this.dirty();
      }
      default:
        if (isTerminalEvent(event)) this.finish(event);
    }
  }

  /** The bus closed without a terminal event (conversation deleted, daemon stopping). */
  abandon(): void {
    this.done = true;
    this.clearTimer();
  }

  private finish(event: Extract<ChatEvent, { type: "turn_done" | "turn_error" }>): void {
    this.done = true;
    this.deps.questionChanged(null);
    this.clearTimer();
    this.closeProgress();
    const answer = this.segment.trim();
    const parts: OutgoingMessage[] = answer ? this.deps.platform.render(answer) : [];
    const elapsed = this.elapsedMs();
    if (event.type === "turn_error") {
      parts.push({ text: endLine({ kind: "failed", message: event.message }, elapsed) });
    } else if (event.stop_reason === "interrupted") {
      parts.push({ text: endLine({ kind: "stopped", queued: this.deps.queued() }, elapsed) });
    } else if (!answer) {
      parts.push({ text: `✔️ Done in ${Math.round(elapsed / 1000)}s (no text reply).` });
    }
    // After the answer, so the phone reads what the agent said, then gets what it made.
    for (const shared of this.files) parts.push(sharedFileMessage(shared.attachment, shared.caption, this.deps.platform));
    this.send(parts);
  }

  private send(messages: OutgoingMessage[]): void {
    this.deps.courier.enqueue(this.chatId, this.threadId, messages);
  }

  private dirty(): void {
    // Before the first interval nothing is shown; the opening timer is already set.
    if (!this.opened) return;
    if (this.flushing) {
      this.dirtySinceFlush = true;
      return;
    }
    const at = this.deps.throttle.slot(this.chatId, this.threadId, this.deps.clock.now());
    if (!this.timer || this.timerAt > at) this.schedule(at);
  }

  private schedule(at: number): void {
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(() => this.tick(), Math.max(0, at - this.deps.clock.now()));
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private tick(): void {
    this.timer = null;
    this.opened = true;
    // A flush already waiting in the courier reads the newest state when it runs.
    if (this.done || this.flushing) return;
    const now = this.deps.clock.now();
    const slot = this.deps.throttle.slot(this.chatId, this.threadId, now);
    if (slot > now) return this.schedule(slot);
    // Refused while deliveries are backed up: no progress now; answers go first.
    this.flushing = this.deps.courier.tryEphemeral((conn) => this.flush(conn));
    if (!this.flushing) this.schedule(now + QUIET_REFRESH_MS);
  }

  /**
   * Runs in the courier's turn. The chat's throttle is checked here, at send time, and
   * advanced when the call *completes*, so two edits reach Telegram at least one interval apart
   * however long the courier queue was.
   */
  private async flush(conn: BotConnection): Promise<void> {
    const { clock, throttle, editIntervalMs } = this.deps;
    let next = clock.now() + Math.max(editIntervalMs, QUIET_REFRESH_MS);
    try {
      if (this.done) return;
      const now = clock.now();
      const slot = throttle.slot(this.chatId, this.threadId, now);
      if (slot > now) {
        next = slot;
        return;
      }
      const text = progressText({ startedAt: this.startedAt, steps: this.steps, tools: this.tools, text: this.segment, retrying: this.retrying }, now);
      if (text === this.shown) return;
      // The Stop button rides on every edit (an edit without it would drop it); it leaves with the
      // message itself when the turn ends (closeProgress), at no edit of its own.
      const buttons = this.turn ? stopButtons(this.turn) : undefined;
      if (this.progressId === null) this.progressId = await conn.send(this.chatId, this.threadId, { text, silent: true, ...(buttons ? { buttons } : {}) });
      else await conn.edit(this.chatId, this.progressId, { text, ...(buttons ? { buttons } : {}) });
      this.shown = text;
      throttle.used(this.chatId, this.threadId, clock.now(), editIntervalMs);
      next = clock.now() + Math.max(editIntervalMs, QUIET_REFRESH_MS);
    } finally {
      this.flushing = false;
      if (!this.done) this.schedule(this.dirtySinceFlush ? throttle.slot(this.chatId, this.threadId, clock.now()) : next);
      this.dirtySinceFlush = false;
    }
  }

  private closeProgress(): void {
    // Queued after any flush (the courier runs them in order), so an opened message is known here.
    this.deps.courier.tryEphemeral(async (conn) => {
      if (this.progressId !== null) await conn.delete(this.chatId, this.progressId);
    }, true);
  }
}

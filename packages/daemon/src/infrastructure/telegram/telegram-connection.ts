/** One bot on grammY's Api: every call maps its failure to PlatformFailure (never with the token). */
import { Api, GrammyError, InputFile } from "grammy";
import { PlatformFailure, type BotCommand, type BotConnection, type BotIdentity, type FileChunks, type InboundUpdate, type OutgoingMessage, type UpdateSink, type UploadFile } from "../../application/channels/ports.js";
import { pollTelegram, type PollTimings } from "./telegram-update-loop.js";
import { toPlatformFailure } from "./telegram-failure.js";
import { toInboundUpdate } from "./telegram-updates.js";

/** Telegram's wording when the HTML is refused ("can't parse entities: Unsupported start tag…"). */
const BAD_MARKUP = /can't parse entities|can't find end of the entity|unsupported start tag|unclosed start tag/i;
const NOT_MODIFIED = /message is not modified/i;

/** Numeric ids go out as numbers; "@channel" names stay strings. */
function chatIdOf(chatId: string): number | string {
  return /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
}

type GrammySignal = Parameters<Api["getUpdates"]>[1];

function is400(err: unknown, pattern: RegExp): boolean {
  return err instanceof GrammyError && err.error_code === 400 && pattern.test(err.description);
}

const DEFAULT_POLL: PollTimings = { pollTimeoutSeconds: 50, backoffMs: [1000, 5000, 30_000] };

/** A connection's own long poll, beside the seam's `receive` (Telegram's adapter tests call it directly). */
export type TelegramBotConnection = BotConnection & {
  getUpdates(offset: number, timeoutSeconds: number, signal: AbortSignal): Promise<InboundUpdate[]>;
};

export class TelegramConnection implements TelegramBotConnection {
  constructor(
    private readonly api: Api,
    private readonly token: string,
    /** grammY's per-request timeout: a long poll must end before it. */
    private readonly requestTimeoutSeconds: number,
    /** Where files are fetched: `<apiRoot>/file/bot<token>/<file_path>`. */
    private readonly apiRoot: string,
    /** The update loop's pacing (tests shorten the backoff and the poll). */
    private readonly poll: PollTimings = DEFAULT_POLL,
  ) {}

  private async call<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      // An aborted long poll rejects with the abort reason, not a platform failure.
      signal?.throwIfAborted();
      throw toPlatformFailure(err, this.token, this.requestTimeoutSeconds);
    }
  }

  async getMe(): Promise<BotIdentity> {
    const me = await this.call(() => this.api.getMe());
    return { id: String(me.id), username: me.username, name: me.first_name };
  }

  /** The adapter's update loop: long polls from the cursor (the next offset as text). */
  receive(cursor: string | null, sink: UpdateSink, signal: AbortSignal): Promise<void> {
    return pollTelegram((offset, timeout, s) => this.getUpdates(offset, timeout, s), cursor, sink, this.poll, signal);
  }

  /** Long poll. Confirms every update below `offset`; resolves [] on timeout; rejects on abort. */
  async getUpdates(offset: number, timeoutSeconds: number, signal: AbortSignal): Promise<InboundUpdate[]> {
    signal.throwIfAborted();
    const timeout = Math.max(0, Math.min(timeoutSeconds, this.requestTimeoutSeconds - 5));
    const updates = await this.call(
      // grammY types its signal with a polyfill's AbortSignal; at run time it only listens to it.
      // callback_query: taps on a question's option buttons (one tap answers a single choice).
      () => this.api.getUpdates({ offset, timeout, limit: 100, allowed_updates: ["message", "callback_query"] }, signal as unknown as GrammySignal),
      signal,
    );
    return updates.map(toInboundUpdate);
  }

  async send(chatId: string, threadId: string | null, message: OutgoingMessage, signal?: AbortSignal): Promise<string> {
    const grammySignal = signal as unknown as GrammySignal;
    const options = {
      link_preview_options: { is_disabled: true },
      ...(message.silent ? { disable_notification: true } : {}),
      ...(threadId ? { message_thread_id: Number(threadId) } : {}),
      ...(message.buttons?.length
        ? { reply_markup: { inline_keyboard: message.buttons.map((row) => row.map((b) => ({ text: b.text, callback_data: b.data }))) } }
        : {}),
    };
    const chat = chatIdOf(chatId);
    if (message.html) {
      const html = message.html;
      try {
        const sent = await this.api.sendMessage(chat, html, { ...options, parse_mode: "HTML" }, grammySignal);
        return String(sent.message_id);
      } catch (err) {
        signal?.throwIfAborted();
        // Bad markup is our bug, not the reader's problem: the plain twin goes out once.
        if (!is400(err, BAD_MARKUP)) throw toPlatformFailure(err, this.token, this.requestTimeoutSeconds);
      }
    }
    const sent = await this.call(() => this.api.sendMessage(chat, message.text, options, grammySignal), signal);
    return String(sent.message_id);
  }

  async sendFile(chatId: string, threadId: string | null, file: UploadFile, caption: string, signal?: AbortSignal): Promise<string> {
    const grammySignal = signal as unknown as GrammySignal;
    // A path, not a stream: grammY opens it again for each retry, so a retried upload is whole.
    const input = new InputFile(file.path, file.name);
    // Plain caption (no parse mode): the agent's words are not markup; Telegram shows 1024 characters.
    const options = { ...(caption ? { caption: caption.slice(0, 1024) } : {}), ...(threadId ? { message_thread_id: Number(threadId) } : {}) };
    const chat = chatIdOf(chatId);
    const sent = await this.call<{ message_id: number }>(
      () => (file.as === "photo" ? this.api.sendPhoto(chat, input, options, grammySignal) : this.api.sendDocument(chat, input, options, grammySignal)),
      signal,
    );
    return String(sent.message_id);
  }

  async edit(chatId: string, messageId: string, text: string): Promise<void> {
    try {
      await this.api.editMessageText(chatIdOf(chatId), Number(messageId), text, { link_preview_options: { is_disabled: true } });
    } catch (err) {
      if (is400(err, NOT_MODIFIED)) return;
      throw toPlatformFailure(err, this.token, this.requestTimeoutSeconds);
    }
  }

  async delete(chatId: string, messageId: string): Promise<void> {
    await this.call(() => this.api.deleteMessage(chatIdOf(chatId), Number(messageId)));
  }

  async answerCallback(callbackId: string, text: string): Promise<void> {
    // Telegram shows at most 200 characters of the notice.
    await this.call(() => this.api.answerCallbackQuery(callbackId, { text: text.slice(0, 200) }));
  }

  async setCommands(chatId: string, commands: readonly BotCommand[]): Promise<void> {
    const menu = commands.map((c) => ({ command: c.command, description: c.description }));
    await this.call(() => this.api.setMyCommands(menu, { scope: { type: "chat", chat_id: chatIdOf(chatId) } }));
  }

  async clearCommands(chatId: string | null): Promise<void> {
    const scope = chatId === null ? { type: "default" as const } : { type: "chat" as const, chat_id: chatIdOf(chatId) };
    await this.call(() => this.api.deleteMyCommands({ scope }));
  }

  async downloadFile(fileId: string, signal?: AbortSignal): Promise<FileChunks> {
    const file = await this.call(() => this.api.getFile(fileId, signal as unknown as GrammySignal), signal);
    if (!file.file_path) throw new PlatformFailure("rejected", "Telegram gave no path for the file.");
    // The URL carries the token: it is never logged, and no failure below quotes it or the fetch error.
    const url = `${this.apiRoot}/file/bot${this.token}/${file.file_path}`;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.any([signal ?? new AbortController().signal, AbortSignal.timeout(this.requestTimeoutSeconds * 1000)]) });
    } catch {
      signal?.throwIfAborted();
      throw new PlatformFailure("unreachable", "The file download from Telegram failed or stalled.");
    }
    if (!res.ok || !res.body) throw new PlatformFailure(res.status >= 500 ? "unreachable" : "rejected", `Telegram refused the file download (${res.status}).`);
    return streamOf(res.body, signal);
  }
}

/** The body's chunks; a cut or stalled stream rejects with a PlatformFailure of our own wording. */
async function* streamOf(body: ReadableStream<Uint8Array>, signal?: AbortSignal): FileChunks {
  const reader = body.getReader();
  try {
    for (;;) {
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await reader.read();
      } catch {
        signal?.throwIfAborted();
        throw new PlatformFailure("unreachable", "The file download from Telegram was cut off or stalled.");
      }
      if (step.done) return;
      yield step.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

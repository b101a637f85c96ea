/**
 * One Discord bot as the seam's BotConnection, over DiscordConnection. Loaded on the first
 * Discord channel only (`import()` from discord-platform.ts): a daemon without one never loads
 * the @discordjs libraries.
 */
import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import {
  PlatformFailure,
  type BotCommand,
  type BotConnection,
  type BotIdentity,
  type EditedMessage,
  type FileChunks,
  type OutgoingMessage,
  type UpdateSink,
  type UploadFile,
} from "../../application/channels/ports.js";
import { DiscordConnection } from "./discord-connection.js";
import type { DiscordCursor, DiscordOutgoing, DiscordSlashCommand } from "./discord-events.js";
import { toPlatformFailure } from "./discord-failure.js";
import { commandText, parseCallbackId, toInboundUpdate } from "./discord-inbound.js";
import { messageRef, parseMessageRef } from "./discord-message-ref.js";
import { DISCORD_MESSAGE_LIMIT } from "./discord-split.js";

export interface DiscordBotOptions {
  readonly token: string;
  readonly apiRoot: string;
  /** Spacing between two IDENTIFYs (Discord's 5 s; tests against the fake use 0). */
  readonly identifySpacingMs?: number;
  /** Waits after a failed connect, by attempt; the last repeats. */
  readonly backoffMs: readonly number[];
  /** REST request timeout. */
  readonly timeoutMs?: number;
}

/** A persisted cursor read back; anything unreadable is "none yet" (identify, no backfill). */
export function parseCursor(raw: string | null): DiscordCursor | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<DiscordCursor> | null;
    if (!parsed || typeof parsed !== "object") return null;
    const s = parsed.session;
    const session = s && typeof s.id === "string" && typeof s.sequence === "number" && typeof s.resumeUrl === "string" ? s : null;
    const ids = parsed.lastMessageIds && typeof parsed.lastMessageIds === "object" ? parsed.lastMessageIds : {};
    return { session, lastMessageIds: Object.fromEntries(Object.entries(ids).filter((e): e is [string, string] => typeof e[1] === "string")) };
  } catch {
    return null;
  }
}

/** The channel's commands as slash commands; one that takes words gets one optional text option. */
export function slashCommands(commands: readonly BotCommand[]): DiscordSlashCommand[] {
  return commands.map((c) => ({
    name: c.command,
    description: c.description.slice(0, 100),
    ...(c.description.includes("<") ? { options: [{ name: "text", description: "What follows the command", type: "string" as const, required: false }] } : {}),
  }));
}

export class DiscordBot implements BotConnection {
  private readonly conn: DiscordConnection;
  /** Where inbound events go while `receive` runs. */
  private handler: ((update: ReturnType<typeof toInboundUpdate>, cursor: string) => Promise<void>) | null = null;
  /** The slash commands last registered by this connection (registering is global: once is enough). */
  private registered: string | null = null;

  constructor(private readonly options: DiscordBotOptions) {
    this.conn = new DiscordConnection({
      token: options.token,
      apiRoot: options.apiRoot,
      ...(options.identifySpacingMs !== undefined ? { identifySpacingMs: options.identifySpacingMs } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      onEvent: async (event, after) => {
        // A slash command must be answered within 3 s, whatever the handling takes: a short
        // private echo, best effort (a replayed one was answered already and is refused).
        if (event.kind === "command") {
          await this.conn
            .answer(event, { content: commandText(event.name, event.options).slice(0, DISCORD_MESSAGE_LIMIT), ephemeral: true })
            .catch(() => undefined);
        }
        await this.handler?.(toInboundUpdate(event), JSON.stringify(after));
      },
      onGatewayError: (message) => this.gatewayTrouble?.(new PlatformFailure("unreachable", `Discord's gateway failed: ${message}`)),
    });
  }

  private gatewayTrouble: ((failure: PlatformFailure) => void) | null = null;

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toPlatformFailure(err, what);
    }
  }

  getMe(): Promise<BotIdentity> {
    return this.call("the bot's identity", () => this.conn.whoAmI());
  }

  /**
   * The gateway from the persisted cursor (a RESUME when its session is alive, else IDENTIFY and
   * the gap read from history). Each event is handed over on the connection's one chain, so the
   * next waits for it; what arrived while one was handled forms one batch.
   */
  async receive(cursor: string | null, sink: UpdateSink, signal: AbortSignal): Promise<void> {
    this.conn.resumeFrom(parseCursor(cursor));
    let inBatch = false;
    let busy = false;
    this.gatewayTrouble = (failure) => {
      if (!signal.aborted) sink.trouble(failure);
    };
    this.handler = async (update, after) => {
      // After the stop nothing more is handed over: the cursor stays where it was.
      if (signal.aborted) return;
      if (!inBatch) sink.beginBatch();
      inBatch = busy = true;
      try {
        await sink.deliver(update, after);
      } finally {
        busy = false;
        // The batch closes once nothing else was waiting on the chain behind this event.
        setImmediate(() => {
          if (inBatch && !busy) {
            inBatch = false;
            sink.endBatch();
          }
        });
      }
    };
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.conn.start();
        break;
      } catch (err) {
        if (signal.aborted) break;
        const failure = toPlatformFailure(err, "the gateway connection");
        if (failure.kind === "unauthorized") throw failure;
        sink.trouble(failure);
        await this.conn.stop({ keepSession: true }).catch(() => undefined);
        const wait = failure.retryAfterMs ?? this.options.backoffMs[Math.min(failures, this.options.backoffMs.length - 1)] ?? 1000;
        failures += 1;
        await delay(wait, undefined, { signal }).catch(() => undefined);
      }
    }
    if (!signal.aborted) sink.healthy();
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
    // A resumable close: the next start RESUMEs from the persisted cursor's session.
    await this.conn.stop({ keepSession: true }).catch(() => undefined);
    this.handler = null;
    if (inBatch) {
      inBatch = false;
      sink.endBatch();
    }
  }

  /** In a thread the thread is the channel written to; the id handed back names it (discord-message-ref.ts). */
  async send(chatId: string, threadId: string | null, message: OutgoingMessage, _signal?: AbortSignal, deliveryKey?: string): Promise<string> {
    const target = threadId ?? chatId;
    const buttons = discordButtons(message.buttons);
    // The outbox row's key as the enforced nonce: a resend after a crash returns the first message.
    const out: DiscordOutgoing = { content: message.text, ...(buttons?.length ? { buttons } : {}), ...(deliveryKey ? { nonce: deliveryKey } : {}) };
    // Rendered parts are within 2,000 already; a longer line (a notice) is cut the same way.
    const id = await this.call("a message", async () => (message.text.length > DISCORD_MESSAGE_LIMIT ? (await this.conn.sendText(target, out.content, out.buttons)).ids.at(-1)! : (await this.conn.send(target, out)).id));
    return messageRef(threadId, id);
  }

  async edit(chatId: string, messageId: string, message: EditedMessage): Promise<void> {
    // Buttons absent = none: the edit sends an empty component list, which withdraws them.
    const buttons = discordButtons(message.buttons);
    const at = parseMessageRef(chatId, messageId);
    await this.call("an edit", () => this.conn.edit(at.channelId, at.messageId, { content: message.text.slice(0, DISCORD_MESSAGE_LIMIT), ...(buttons?.length ? { buttons } : {}) }));
  }

  async delete(chatId: string, messageId: string): Promise<void> {
    const at = parseMessageRef(chatId, messageId);
    await this.call("a delete", () => this.conn.delete(at.channelId, at.messageId));
  }

  async answerCallback(callbackId: string, text: string): Promise<void> {
    // Only the one who tapped sees the notice (an ephemeral reply), as Telegram's toast.
    await this.call("a button answer", () => this.conn.answer(parseCallbackId(callbackId), { content: text.slice(0, DISCORD_MESSAGE_LIMIT), ephemeral: true }));
  }

  /**
   * Discord has no per-chat command menu: slash commands are registered globally, once per
   * connection (re-registering the same list is skipped). Strangers see them and are ignored as
   * any stranger's message is.
   */
  async setCommands(_chatId: string, commands: readonly BotCommand[]): Promise<void> {
    const wanted = JSON.stringify(slashCommands(commands));
    if (this.registered === wanted) return;
    await this.call("the slash commands", () => this.conn.registerCommands(slashCommands(commands)));
    this.registered = wanted;
  }

  /** Nothing to clear: the global commands stay (see setCommands). */
  async clearCommands(): Promise<void> {}

  async downloadFile(fileId: string, signal?: AbortSignal): Promise<FileChunks> {
    signal?.throwIfAborted();
    let stream;
    try {
      stream = await this.conn.download(fileId);
    } catch {
      signal?.throwIfAborted();
      throw new PlatformFailure("unreachable", "The file download from Discord failed.");
    }
    return chunks(stream, signal);
  }

  async sendFile(chatId: string, threadId: string | null, file: UploadFile, caption: string, _signal?: AbortSignal, deliveryKey?: string): Promise<string> {
    const data = await readFile(file.path);
    const out: DiscordOutgoing = { content: caption.slice(0, DISCORD_MESSAGE_LIMIT), files: [{ name: file.name, data, contentType: file.mediaType }], ...(deliveryKey ? { nonce: deliveryKey } : {}) };
    return messageRef(threadId, await this.call("a file upload", async () => (await this.conn.send(threadId ?? chatId, out)).id));
  }

  /**
   * The members of the server `chatId` belongs to, the bot included (Discord's approximate
   * count, which lags a join by moments at most): a server channel is served only while the
   * server holds just the owner and the bot.
   */
  async memberCount(chatId: string): Promise<number> {
    return this.call("the server's member count", () => this.conn.guildMemberCount(chatId));
  }

  /** A public thread under the text channel; missing permissions come back "rejected" (403, code 50013). */
  async createTopic(chatId: string, name: string): Promise<string> {
    return this.call("a new thread", () => this.conn.createThread(chatId, threadName(name)));
  }

  async renameTopic(_chatId: string, threadId: string, name: string): Promise<void> {
    await this.call("a thread's new name", () => this.conn.renameChannel(threadId, threadName(name)));
  }
}

/** The download's chunks; a cut stream rejects with a PlatformFailure of our own wording. */
async function* chunks(stream: AsyncIterable<Buffer> & { destroy(): void }, signal?: AbortSignal): FileChunks {
  const stop = () => stream.destroy();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    for await (const chunk of stream) yield chunk;
  } catch {
    signal?.throwIfAborted();
    throw new PlatformFailure("unreachable", "The file download from Discord was cut off.");
  } finally {
    signal?.removeEventListener("abort", stop);
    stream.destroy();
  }
}

/** Discord takes thread names of 1–100 characters. */
const THREAD_NAME_MAX = 100;

function threadName(name: string): string {
  const chars = [...name];
  return chars.length > THREAD_NAME_MAX ? `${chars.slice(0, THREAD_NAME_MAX - 1).join("")}…` : name;
}

/** The seam's buttons as Discord components (labels within Discord's 80 characters). */
function discordButtons(buttons: OutgoingMessage["buttons"]): DiscordOutgoing["buttons"] {
  return buttons?.map((row) => row.map((b) => ({ id: b.data, label: b.text.slice(0, 80) })));
}

/**
 * A fake Telegram Bot API on 127.0.0.1: `/bot<token>/<method>` over real HTTP, answering
 * `{ok:true,result}` / `{ok:false,error_code,description,parameters?}` as Telegram does.
 * grammY points its `apiRoot` here. It long-polls for real (a getUpdates is held until a
 * user speaks or its timeout passes), keeps each chat as the phone would show it, checks
 * HTML like Telegram, and injects faults (status answers, storms, dropped or hung sockets).
 * Tests wait on `waitFor`, resolved as calls arrive — never on sleeps.
 */
import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseTelegramHtml } from "../support/telegram-html.js";

export interface FakeBot {
  readonly token: string;
  readonly id: number;
  readonly username: string;
  readonly first_name: string;
}

export interface FakeFailure {
  readonly status: number;
  readonly description: string;
  readonly retry_after?: number;
}

/** One API call as the fake received it and what it answered. */
export interface FakeCall {
  readonly method: string;
  readonly token: string;
  readonly params: Record<string, any>;
  readonly time: number;
  /** When the answer was written (sub-ms wall clock; 0 until answered): for a held long poll, the moment it handed updates over. */
  answeredAt: number;
  /** HTTP status answered; 0 when the fake dropped or held the connection without answering. */
  status: number;
  ok: boolean;
  description?: string;
}

/** A message as the phone shows it. */
export interface FakeChatMessage {
  readonly messageId: number;
  readonly from: "user" | "bot";
  /** The visible text (tags gone, entities decoded). */
  text: string;
  /** The HTML the bot sent, when it used parse_mode HTML. */
  html: string | null;
  readonly silent: boolean;
  readonly threadId: number | null;
  edits: number;
  /** The inline keyboard the bot sent with it (button texts and their callback data), if any. */
  buttons?: { text: string; data: string }[][];
  /** A photo or document the bot uploaded (sendPhoto / sendDocument); `text` is then its caption. */
  file?: FakeSentFile;
}

/** The owner taps an inline button under one of the bot's messages. */
export interface UserTaps {
  readonly chatId: number;
  readonly from: { readonly id: number; readonly first_name: string };
  readonly messageId: number;
  readonly data: string;
}

/** A group the fake knows: who is in it (the bot counts as one more), whether Topics are on, its topics. */
export interface FakeGroup {
  readonly chatId: number;
  readonly isForum: boolean;
  readonly members: Set<number>;
  /** message_thread_id → name, for the topics created by createForumTopic (General has none). */
  readonly topics: Map<number, string>;
  /** The bot is an admin allowed to manage topics (createForumTopic / editForumTopic need it). */
  canManageTopics: boolean;
}

export interface UserSays {
  readonly token?: string;
  readonly chatId: number;
  readonly from: { readonly id: number; readonly first_name: string; readonly last_name?: string };
  readonly text: string;
  readonly chatType?: "private" | "group" | "supergroup" | "channel";
  /** A forum topic of a supergroup. */
  readonly threadId?: number;
  /**
   * Media fields of the message (`photo`, `document`, `voice`, `media_group_id`…, file ids from
   * `addFile`): the text then goes out as the caption, as Telegram sends it.
   */
  readonly media?: Record<string, unknown>;
}

/** Telegram's getFile download limit for bots (the Bot API refuses bigger files). */
export const FAKE_GET_FILE_LIMIT = 20 * 1024 * 1024;

interface StoredFile {
  readonly bytes: Buffer;
  readonly path: string;
  /** The size Telegram reports (defaults to the bytes' length; set larger to fake a big file cheaply). */
  readonly size: number;
}

export interface Update {
  update_id: number;
  [kind: string]: unknown;
}

interface HeldPoll {
  readonly reply: (status: number, body: unknown) => void;
  readonly timer: NodeJS.Timeout;
  readonly offset: number;
  readonly limit: number;
}

interface BotState {
  readonly bot: FakeBot;
  queue: Update[];
  poll: HeldPoll | null;
  /** The command menu per scope ("default", "chat:<id>", …), as setMyCommands/deleteMyCommands left it. */
  commands: Map<string, unknown[]>;
}

type Answer = { status: number; body: unknown };

const MAX_TEXT = 4096;

function ok(result: unknown): Answer {
  return { status: 200, body: { ok: true, result } };
}

function fail(status: number, description: string, retryAfter?: number): Answer {
  return {
    status,
    body: { ok: false, error_code: status, description, ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}) },
  };
}

/** Telegram's BotCommandScope as a key: no scope is the default one; a chat scope names its chat. */
function scopeKey(scope: unknown): string {
  const s = (scope ?? { type: "default" }) as { type?: string; chat_id?: unknown; user_id?: unknown };
  if (s.type === "chat" || s.type === "chat_administrators") return `${s.type === "chat" ? "chat" : "chat_admins"}:${String(s.chat_id)}`;
  if (s.type === "chat_member") return `chat_member:${String(s.chat_id)}:${String(s.user_id)}`;
  return s.type ?? "default";
}

/** Form and query values arrive as strings; Telegram reads JSON-looking ones (arrays, objects) as JSON. */
function fromForm(entries: Iterable<[string, string]>): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [k, v] of entries) {
    if (/^[[{]/.test(v)) {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch {
        // Not JSON after all: kept as the string.
      }
    }
    out[k] = v;
  }
  return out;
}

export class FakeTelegram extends EventEmitter {
  readonly sent: FakeCall[] = [];
  private readonly bots = new Map<string, BotState>();
  private readonly chats = new Map<string, FakeChatMessage[]>();
  private readonly edits = new Map<string, number[]>();
  private readonly failures = new Map<string, FakeFailure[]>();
  private readonly storms = new Map<string, FakeFailure>();
  private readonly network = new Map<string, Array<"drop" | "hang">>();
  private readonly hung = new Set<http.ServerResponse>();
  private readonly files = new Map<string, StoredFile>();
  private readonly groups = new Map<string, FakeGroup>();
  private nextFileId = 1;
  private nextUpdateId = 100;
  private nextMessageId = 1;
  private readonly server: http.Server;

  private constructor() {
    super();
    // Every pending waitFor listens: many at once is normal, not a leak.
    this.setMaxListeners(0);
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<FakeTelegram> {
    const fake = new FakeTelegram();
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get apiRoot(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  addBot(bot: FakeBot): void {
    this.bots.set(bot.token, { bot, queue: [], poll: null, commands: new Map() });
  }

  /** A file on Telegram's side, to put in a message's `media` by its file_id (getFile and the file URL serve it). */
  addFile(bytes: Buffer, options: { path?: string; size?: number } = {}): { file_id: string; file_unique_id: string; file_size: number } {
    const n = this.nextFileId++;
    const file_id = `file-${n}`;
    const size = options.size ?? bytes.length;
    this.files.set(file_id, { bytes, path: options.path ?? `documents/file_${n}`, size });
    return { file_id, file_unique_id: `u${n}`, file_size: size };
  }

  /**
   * A supergroup (forum when `isForum`) holding these users and the bot. The bot is told it was
   * added as Telegram tells it: a service message (new_chat_members naming the bot) from the
   * first member, who added it.
   */
  addGroup(input: { chatId: number; isForum: boolean; members: readonly { id: number; first_name: string }[]; canManageTopics?: boolean }): FakeGroup {
    const group: FakeGroup = { chatId: input.chatId, isForum: input.isForum, members: new Set(input.members.map((m) => m.id)), topics: new Map(), canManageTopics: input.canManageTopics ?? true };
    this.groups.set(String(input.chatId), group);
    const state = this.bots.values().next().value;
    const by = input.members[0];
    if (state && by) {
      const bot = { id: state.bot.id, is_bot: true, first_name: state.bot.first_name, username: state.bot.username };
      state.queue.push({
        update_id: this.nextUpdateId++,
        message: { message_id: this.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: this.groupChat(group), from: { is_bot: false, ...by }, new_chat_members: [bot] },
      });
      this.deliver(state);
    }
    this.emit("change");
    return group;
  }

  /** Someone joins a group: the service message (new_chat_members) Telegram sends into its General topic. */
  userJoins(chatId: number, user: { id: number; first_name: string }): void {
    const group = this.groups.get(String(chatId));
    const state = this.bots.values().next().value;
    if (!group || !state) throw new Error("FakeTelegram.userJoins: no such group or bot");
    group.members.add(user.id);
    state.queue.push({
      update_id: this.nextUpdateId++,
      message: { message_id: this.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: this.groupChat(group), from: { is_bot: false, ...user }, new_chat_members: [{ is_bot: false, ...user }] },
    });
    this.deliver(state);
    this.emit("change");
  }

  /** A group the fake knows (its topics as created by the bot). */
  group(chatId: number): FakeGroup | undefined {
    return this.groups.get(String(chatId));
  }

  private groupChat(group: FakeGroup) {
    return { id: group.chatId, type: "supergroup", title: `group ${group.chatId}`, ...(group.isForum ? { is_forum: true } : {}) };
  }

  /** A user writes to a bot: the update is queued (and handed to a held long poll at once). */
  userSays(input: UserSays): Update {
    const [update] = this.userSaysAll([input]);
    return update!;
  }

  /**
   * Offers an update again, as Telegram does after a crash left it unconfirmed (the daemon's
   * persisted offset must be put back below it too, or the daemon skips it as handled).
   */
  redeliver(update: Update, token?: string): void {
    const state = token ? this.bots.get(token) : this.bots.values().next().value;
    if (!state) throw new Error("FakeTelegram.redeliver: no such bot");
    state.queue.push(update);
    this.deliver(state);
    this.emit("change");
  }

  /** A tap on an inline button: a callback_query update, as Telegram sends it; returns its id (answerCallbackQuery takes it). */
  userTaps(input: UserTaps): string {
    const state = this.bots.values().next().value;
    if (!state) throw new Error("FakeTelegram.userTaps: no such bot");
    const id = `cb${this.nextUpdateId}`;
    state.queue.push({
      update_id: this.nextUpdateId++,
      callback_query: {
        id,
        from: { is_bot: false, ...input.from },
        chat_instance: "1",
        data: input.data,
        message: { message_id: input.messageId, date: Math.floor(Date.now() / 1000), chat: { id: input.chatId, type: "private", first_name: input.from.first_name }, text: "" },
      },
    });
    this.deliver(state);
    this.emit("change");
    return id;
  }

  /** Several messages arriving together: all queued before a held long poll is answered, so one getUpdates carries them (up to its limit). */
  userSaysAll(inputs: readonly UserSays[]): Update[] {
    const states = new Set<BotState>();
    const updates = inputs.map((input) => {
      const state = input.token ? this.bots.get(input.token) : this.bots.values().next().value;
      if (!state) throw new Error("FakeTelegram.userSays: no such bot");
      states.add(state);
      return this.enqueue(state, input);
    });
    for (const state of states) this.deliver(state);
    this.emit("change");
    return updates;
  }

  private enqueue(state: BotState, input: UserSays): Update {
    const chatType = input.chatType ?? "private";
    const group = this.groups.get(String(input.chatId));
    const chat = group
      ? this.groupChat(group)
      : chatType === "private"
        ? { id: input.chatId, type: chatType, first_name: input.from.first_name }
        : { id: input.chatId, type: chatType, title: `chat ${input.chatId}`, ...(input.threadId !== undefined ? { is_forum: true } : {}) };
    const messageId = this.nextMessageId++;
    const message = {
      message_id: messageId,
      date: Math.floor(Date.now() / 1000),
      chat,
      ...(chatType === "channel" ? {} : { from: { is_bot: false, ...input.from } }),
      ...(input.media ? { ...input.media, ...(input.text ? { caption: input.text } : {}) } : { text: input.text }),
      ...(input.threadId !== undefined ? { message_thread_id: input.threadId, is_topic_message: true } : {}),
    };
    const update: Update = { update_id: this.nextUpdateId++, [chatType === "channel" ? "channel_post" : "message"]: message };
    this.chatOf(input.chatId).push({
      messageId,
      from: "user",
      text: input.text,
      html: null,
      silent: false,
      threadId: input.threadId ?? null,
      edits: 0,
    });
    state.queue.push(update);
    return update;
  }

  /** The chat as the phone shows it now (edits applied, deleted messages gone). */
  chat(chatId: number | string): readonly FakeChatMessage[] {
    return this.chats.get(String(chatId)) ?? [];
  }

  /** When each edit of a message in this chat arrived (ms), for edit-rate checks. */
  editTimes(chatId: number | string): readonly number[] {
    return this.edits.get(String(chatId)) ?? [];
  }

  /** The most edits this chat received within any `windowMs` (the relay promises at most one per 1.5 s). */
  maxEditsInWindow(chatId: number | string, windowMs: number): number {
    const times = this.editTimes(chatId);
    let best = 0;
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while (times[end]! - times[start]! >= windowMs) start++;
      best = Math.max(best, end - start + 1);
    }
    return best;
  }

  /** The next `n` calls of `method` answer this failure. */
  failNext(method: string, n: number, failure: FakeFailure): void {
    const list = this.failures.get(method) ?? [];
    for (let i = 0; i < n; i++) list.push(failure);
    this.failures.set(method, list);
  }

  /** Every call of `method` answers this failure until `heal()`. */
  failAll(method: string, failure: FakeFailure): void {
    this.storms.set(method, failure);
  }

  heal(): void {
    this.storms.clear();
    this.failures.clear();
    this.network.clear();
  }

  /** The next `n` calls of `method` have their connection destroyed before any answer (a network error). */
  dropNext(method: string, n: number): void {
    this.networkFault(method, n, "drop");
  }

  /** The next `n` calls of `method` are never answered (until the client gives up or `close()`). */
  hangNext(method: string, n: number): void {
    this.networkFault(method, n, "hang");
  }

  /** Resolves once `predicate` holds; checked now and after every call and every user message. */
  waitFor(predicate: (fake: FakeTelegram) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate(this)) return;
        this.off("change", check);
        resolve();
      };
      this.on("change", check);
      check();
    });
  }

  /** The command menu a scope shows ("default", "chat:<id>"); empty when none is set. */
  commandsIn(scope: string, token?: string): readonly unknown[] {
    const state = token ? this.bots.get(token) : this.bots.values().next().value;
    return state?.commands.get(scope) ?? [];
  }

  /** Every scope that has a command menu now. */
  commandScopes(token?: string): string[] {
    const state = token ? this.bots.get(token) : this.bots.values().next().value;
    return [...(state?.commands.keys() ?? [])];
  }

  /** Whether a long poll of this bot (default: the first) is being held right now. */
  polling(token?: string): boolean {
    const state = token ? this.bots.get(token) : this.bots.values().next().value;
    return state?.poll != null;
  }

  /** The calls of one method, optionally only those answered ok. */
  calls(method: string, filter?: { ok?: boolean }): FakeCall[] {
    return this.sent.filter((c) => c.method === method && (filter?.ok === undefined || c.ok === filter.ok));
  }

  async close(): Promise<void> {
    for (const state of this.bots.values()) {
      if (state.poll) clearTimeout(state.poll.timer);
      state.poll = null;
    }
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private networkFault(method: string, n: number, kind: "drop" | "hang"): void {
    const list = this.network.get(method) ?? [];
    for (let i = 0; i < n; i++) list.push(kind);
    this.network.set(method, list);
  }

  private chatOf(chatId: number | string): FakeChatMessage[] {
    const key = String(chatId);
    let chat = this.chats.get(key);
    if (!chat) {
      chat = [];
      this.chats.set(key, chat);
    }
    return chat;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    if (url.pathname.startsWith("/file/bot")) return this.serveFile(url.pathname, req, res);
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const raw = body.toString("utf8");
    const send = (status: number, body: unknown) => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!match) return send(404, { ok: false, error_code: 404, description: "Not Found" });
    const [, token, rawMethod] = match as unknown as [string, string, string];
    let params: Record<string, any>;
    const type = req.headers["content-type"] ?? "";
    try {
      params = type.startsWith("multipart/form-data")
        ? await multipartParams(body, type)
        : type.includes("application/json") && raw
          ? JSON.parse(raw)
          : fromForm(new URLSearchParams(raw).entries());
    } catch {
      return send(400, { ok: false, error_code: 400, description: "Bad Request: can't parse JSON" });
    }
    Object.assign(params, fromForm(url.searchParams.entries()));
    const method = rawMethod;
    const call: FakeCall = { method, token, params, time: Date.now(), answeredAt: 0, status: 0, ok: false };
    this.sent.push(call);
    const reply = (status: number, body: unknown) => {
      call.status = status;
      call.answeredAt = performance.timeOrigin + performance.now();
      call.ok = (body as { ok?: boolean }).ok === true;
      if (!call.ok) call.description = (body as { description?: string }).description;
      send(status, body);
      this.emit("change");
    };

    const state = this.bots.get(token);
    if (!state) return reply(401, { ok: false, error_code: 401, description: "Unauthorized" });

    const net = this.network.get(method)?.shift();
    if (net === "drop") {
      res.destroy();
      this.emit("change");
      return;
    }
    if (net === "hang") {
      this.hung.add(res);
      res.on("close", () => this.hung.delete(res));
      this.emit("change");
      return;
    }
    const failure = this.failures.get(method)?.shift() ?? this.storms.get(method);
    if (failure) {
      const a = fail(failure.status, failure.description, failure.retry_after);
      return reply(a.status, a.body);
    }
    if (method === "getUpdates") return this.getUpdates(state, params, res, reply);
    const answer = this.answer(state, method, params);
    reply(answer.status, answer.body);
  }

  /** `/file/bot<token>/<file_path>`: the bytes, as Telegram's file server sends them ("file" faults: dropNext/hangNext("file")). */
  private serveFile(pathname: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    const match = /^\/file\/bot([^/]+)\/(.+)$/.exec(pathname);
    const file = match && this.bots.has(match[1]!) ? [...this.files.values()].find((f) => f.path === decodeURIComponent(match[2]!)) : undefined;
    this.sent.push({ method: "file", token: match?.[1] ?? "", params: { path: match?.[2] }, time: Date.now(), answeredAt: Date.now(), status: file ? 200 : 404, ok: !!file });
    const net = this.network.get("file")?.shift();
    if (net === "drop") {
      res.destroy();
    } else if (net === "hang" && file) {
      // Headers and half the bytes, then nothing: a stalled download.
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(file.bytes.length) });
      res.write(file.bytes.subarray(0, file.bytes.length >> 1));
      this.hung.add(res);
      res.on("close", () => this.hung.delete(res));
    } else if (!file) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: false, error_code: 404, description: "Not Found" }));
    } else {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(file.bytes.length) });
      res.end(file.bytes);
    }
    this.emit("change");
  }

  private getUpdates(state: BotState, params: Record<string, any>, res: http.ServerResponse, reply: (s: number, b: unknown) => void): void {
    const offset = Number(params.offset ?? 0);
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100)));
    const timeout = Number(params.timeout ?? 0);
    // Calling with an offset confirms every update below it: Telegram forgets them.
    if (offset) state.queue = state.queue.filter((u) => u.update_id >= offset);
    // Telegram ends the older request when another poller arrives.
    if (state.poll) {
      const older = state.poll;
      state.poll = null;
      clearTimeout(older.timer);
      older.reply(409, {
        ok: false,
        error_code: 409,
        description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
      });
    }
    if (state.queue.length || timeout <= 0) return reply(200, { ok: true, result: state.queue.slice(0, limit) });
    const timer = setTimeout(() => {
      if (state.poll?.timer !== timer) return;
      state.poll = null;
      reply(200, { ok: true, result: [] });
    }, timeout * 1000);
    const poll: HeldPoll = { reply, timer, offset, limit };
    state.poll = poll;
    res.on("close", () => {
      if (state.poll !== poll) return;
      clearTimeout(timer);
      state.poll = null;
      this.emit("change");
    });
    this.emit("change");
  }

  /** Hands queued updates to a held long poll. */
  private deliver(state: BotState): void {
    const poll = state.poll;
    if (!poll || !state.queue.length) return;
    state.poll = null;
    clearTimeout(poll.timer);
    poll.reply(200, { ok: true, result: state.queue.slice(0, poll.limit) });
  }

  private answer(state: BotState, method: string, p: Record<string, any>): Answer {
    switch (method) {
      case "getFile": {
        const file = this.files.get(String(p.file_id));
        if (!file) return fail(400, "Bad Request: invalid file_id");
        if (file.size > FAKE_GET_FILE_LIMIT) return fail(400, "Bad Request: file is too big");
        return ok({ file_id: String(p.file_id), file_unique_id: `u${String(p.file_id)}`, file_size: file.size, file_path: file.path });
      }
      case "getMe":
        return ok({ id: state.bot.id, is_bot: true, first_name: state.bot.first_name, username: state.bot.username, can_join_groups: true });
      case "sendMessage":
        return this.sendMessage(state, p);
      case "editMessageText":
        return this.editMessageText(state, p);
      case "deleteMessage": {
        const chat = this.chatOf(p.chat_id);
        const i = chat.findIndex((m) => m.messageId === Number(p.message_id));
        if (i < 0) return fail(400, "Bad Request: message to delete not found");
        chat.splice(i, 1);
        return ok(true);
      }
      case "setMyCommands":
        state.commands.set(scopeKey(p.scope), Array.isArray(p.commands) ? p.commands : []);
        return ok(true);
      case "deleteMyCommands":
        state.commands.delete(scopeKey(p.scope));
        return ok(true);
      case "getMyCommands":
        return ok(state.commands.get(scopeKey(p.scope)) ?? []);
      case "sendPhoto":
      case "sendDocument":
        return this.sendFile(state, method === "sendPhoto" ? "photo" : "document", p);
      case "getChatMemberCount": {
        const group = this.groups.get(String(p.chat_id));
        if (!group) return fail(400, "Bad Request: chat not found");
        // Telegram counts the bot too.
        return ok(group.members.size + 1);
      }
      case "createForumTopic":
      case "editForumTopic":
        return this.forumTopic(method, p);
      case "answerCallbackQuery":
        // The notice over the chat: recorded as a call (calls("answerCallbackQuery")).
        if (typeof p.callback_query_id !== "string" || !p.callback_query_id) return fail(400, "Bad Request: query is too old and response timeout expired or query ID is invalid");
        return ok(true);
      default:
        return fail(404, "Not Found");
    }
  }

  /** Telegram's checks of a text and its parse mode; the visible text on success. */
  private parse(text: unknown, parseMode: unknown): { text: string } | Answer {
    if (typeof text !== "string" || !text.trim()) return fail(400, "Bad Request: message text is empty");
    let visible = text;
    if (parseMode !== undefined) {
      if (parseMode !== "HTML") return fail(400, `Bad Request: unsupported parse_mode "${String(parseMode)}"`);
      const parsed = parseTelegramHtml(text);
      if (!parsed.ok) return fail(400, parsed.error);
      visible = parsed.text;
    }
    if (visible.length > MAX_TEXT) return fail(400, "Bad Request: message is too long");
    return { text: visible };
  }

  private message(state: BotState, chatId: unknown, m: FakeChatMessage) {
    return {
      message_id: m.messageId,
      date: Math.floor(Date.now() / 1000),
      chat: this.groups.has(String(chatId)) ? this.groupChat(this.groups.get(String(chatId))!) : { id: Number(chatId), type: "private" },
      from: { id: state.bot.id, is_bot: true, first_name: state.bot.first_name, username: state.bot.username },
      text: m.text,
      ...(m.threadId !== null ? { message_thread_id: m.threadId } : {}),
    };
  }

  /** createForumTopic / editForumTopic as the Bot API answers them: a forum, an admin with topic rights, 1–128 characters. */
  private forumTopic(method: string, p: Record<string, any>): Answer {
    const group = this.groups.get(String(p.chat_id));
    if (!group) return fail(400, "Bad Request: chat not found");
    if (!group.isForum) return fail(400, "Bad Request: the chat is not a forum");
    if (!group.canManageTopics) return fail(400, "Bad Request: not enough rights to manage topics");
    const name = p.name === undefined ? undefined : String(p.name);
    if (method === "createForumTopic" && !name) return fail(400, "Bad Request: TOPIC_NAME_EMPTY");
    if (name !== undefined && (name.length < 1 || name.length > 128)) return fail(400, "Bad Request: TOPIC_NAME_INVALID");
    if (method === "editForumTopic") {
      const id = Number(p.message_thread_id);
      if (!group.topics.has(id)) return fail(400, "Bad Request: TOPIC_ID_INVALID");
      if (name !== undefined) group.topics.set(id, name);
      return ok(true);
    }
    // A topic's thread id is the id of the service message that opened it.
    const id = this.nextMessageId++;
    group.topics.set(id, name!);
    return ok({ message_thread_id: id, name, icon_color: 7322096 });
  }

  /** A forum group refuses a message into a topic it does not have. */
  private threadRefused(p: Record<string, any>): Answer | null {
    const group = this.groups.get(String(p.chat_id));
    if (!group || p.message_thread_id === undefined) return null;
    return group.isForum && group.topics.has(Number(p.message_thread_id)) ? null : fail(400, "Bad Request: message thread not found");
  }

  private sendMessage(state: BotState, p: Record<string, any>): Answer {
    if (p.chat_id === undefined) return fail(400, "Bad Request: chat_id is empty");
    const refused = this.threadRefused(p);
    if (refused) return refused;
    const parsed = this.parse(p.text, p.parse_mode);
    if ("status" in parsed) return parsed;
    const m: FakeChatMessage = {
      messageId: this.nextMessageId++,
      from: "bot",
      text: parsed.text,
      html: p.parse_mode === "HTML" ? String(p.text) : null,
      silent: p.disable_notification === true || p.disable_notification === "true",
      threadId: p.message_thread_id !== undefined ? Number(p.message_thread_id) : null,
      edits: 0,
      ...keyboardOf(p.reply_markup),
    };
    this.chatOf(p.chat_id).push(m);
    return ok(this.message(state, p.chat_id, m));
  }

  private editMessageText(state: BotState, p: Record<string, any>): Answer {
    const m = this.chatOf(p.chat_id).find((x) => x.messageId === Number(p.message_id) && x.from === "bot");
    if (!m) return fail(400, "Bad Request: message to edit not found");
    const parsed = this.parse(p.text, p.parse_mode);
    if ("status" in parsed) return parsed;
    const html = p.parse_mode === "HTML" ? String(p.text) : null;
    // As Telegram: an edit without reply_markup takes the inline keyboard away; an empty one too.
    const buttons = keyboardOf(p.reply_markup).buttons;
    if (parsed.text === m.text && html === m.html && JSON.stringify(buttons ?? []) === JSON.stringify(m.buttons ?? [])) {
      return fail(
        400,
        "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    }
    m.text = parsed.text;
    m.html = html;
    if (buttons) m.buttons = buttons;
    else delete m.buttons;
    m.edits += 1;
    const times = this.edits.get(String(p.chat_id)) ?? [];
    times.push(Date.now());
    this.edits.set(String(p.chat_id), times);
    return ok(this.message(state, p.chat_id, m));
  }

  // ---- Outbound files (coffer__share_file → the phone): sendPhoto / sendDocument, multipart ----

  /** A photo (≤ 10 MB) or document (≤ 50 MB) upload, kept on the chat as the phone shows it. */
  private sendFile(state: BotState, as: "photo" | "document", p: Record<string, any>): Answer {
    if (p.chat_id === undefined) return fail(400, "Bad Request: chat_id is empty");
    const refused = this.threadRefused(p);
    if (refused) return refused;
    const file = p[as] as FakeSentFile | string | undefined;
    if (!file || typeof file === "string") return fail(400, `Bad Request: there is no ${as} in the request`);
    if (as === "photo" && file.bytes.length > FAKE_PHOTO_LIMIT) return fail(400, "Bad Request: PHOTO_INVALID_DIMENSIONS");
    if (file.bytes.length > FAKE_UPLOAD_LIMIT) return fail(413, "Request Entity Too Large");
    const caption = typeof p.caption === "string" ? p.caption : "";
    if (caption.length > 1024) return fail(400, "Bad Request: message caption is too long");
    const m: FakeChatMessage = {
      messageId: this.nextMessageId++,
      from: "bot",
      text: caption,
      html: null,
      silent: p.disable_notification === true || p.disable_notification === "true",
      threadId: p.message_thread_id !== undefined ? Number(p.message_thread_id) : null,
      edits: 0,
      file: { ...file, kind: as },
    };
    this.chatOf(p.chat_id).push(m);
    return ok(this.message(state, p.chat_id, m));
  }
}

/** An inline keyboard as the phone shows it (absent when there is none, or it is empty). */
function keyboardOf(markup: any): { buttons?: { text: string; data: string }[][] } {
  const rows = typeof markup === "string" ? JSON.parse(markup)?.inline_keyboard : markup?.inline_keyboard;
  if (!Array.isArray(rows) || !rows.some((row: unknown) => Array.isArray(row) && row.length)) return {};
  return { buttons: (rows as any[][]).map((row) => row.map((b) => ({ text: String(b.text), data: String(b.callback_data) }))) };
}

/** A file a bot uploaded: the part's file name, its declared type and the bytes as received. */
export interface FakeSentFile {
  readonly kind?: "photo" | "document";
  readonly name: string;
  readonly type: string;
  readonly bytes: Buffer;
}

/** sendPhoto's limit for bots (Bot API: 10 MB) and every other upload's (50 MB). */
export const FAKE_PHOTO_LIMIT = 10 * 1024 * 1024;
export const FAKE_UPLOAD_LIMIT = 50 * 1024 * 1024;

/**
 * A multipart body (an upload) as params: text fields read like form values, file parts as
 * FakeSentFile; a field `attach://<part>` (how grammY names an upload) reads as that part.
 */
async function multipartParams(body: Buffer, contentType: string): Promise<Record<string, any>> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new Error("no boundary");
  const texts: [string, string][] = [];
  const files = new Map<string, FakeSentFile>();
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break; // the closing delimiter
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // Each part: CRLF, its headers, a blank line, the bytes, CRLF before the next delimiter.
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    const headers = part.subarray(0, split).toString("utf8");
    const bytes = part.subarray(split + 4);
    const name = /(?:^|;)\s*name="([^"]*)"/i.exec(headers.replace(/^content-disposition:\s*form-data/i, ""))?.[1] ?? "";
    // Quoted or not (grammY writes `filename=chart.png`), up to the line's end.
    const filename = /filename="?([^"\r\n]*)"?/i.exec(headers)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? "application/octet-stream";
    if (filename !== undefined) files.set(name, { name: filename, type, bytes: Buffer.from(bytes) });
    else texts.push([name, bytes.toString("utf8")]);
    at = next;
  }
  const params = fromForm(texts);
  for (const [key, value] of Object.entries(params)) {
    // grammY sends the reference JSON-encoded ("\"attach://…\""); a bare one is read too.
    const ref = typeof value === "string" ? /^"?attach:\/\/([^"]+)"?$/.exec(value)?.[1] : undefined;
    if (ref) params[key] = files.get(ref) ?? value;
  }
  for (const [key, file] of files) if (!(key in params)) params[key] = file;
  return params;
}

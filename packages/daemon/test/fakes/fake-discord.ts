/**
 * A fake Discord on 127.0.0.1: the REST API under `/api/v10` and a gateway websocket (the `ws`
 * package) speaking Discord's real wire, so the real @discordjs libraries run against it.
 *
 * Gateway: HELLO → heartbeat/ACK; IDENTIFY → READY (session_id, resume_gateway_url); RESUME →
 * the missed dispatches replayed by sequence, then RESUMED; INVALID_SESSION for an unknown or
 * killed session. A session outlives its socket unless the client closes with 1000/1001, as on
 * Discord; dispatches that happen while its socket is away are kept for the resume. Dispatches
 * while no session exists at all are lost to the gateway (as on Discord) — the channel's message
 * history (GET /channels/:id/messages) still has them.
 *
 * REST: GET /gateway/bot, DM channels, create/edit/delete/list messages (components, the 2,000
 * limit answered 400/50035 like Discord, multipart uploads), interaction callbacks, bulk-overwrite
 * of application commands, a CDN for inbound attachments, 429s on demand (`rateLimitNext`).
 * Servers: guilds with members (`GET /guilds/:id?with_counts=true`), threads opened by the bot
 * (`POST /channels/:id/threads`, THREAD_CREATE dispatched; 403/50013 while `denyThreads`),
 * renames (`PATCH /channels/:id`), messages, slash commands and taps in server channels and
 * threads, and an outage of one channel's message creates (`failMessagesIn`).
 *
 * Everything received is recorded; tests wait with `until(...)`, re-checked on every change —
 * never on sleeps.
 */
import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

export interface FakeDiscordUser {
  readonly id: string;
  readonly username: string;
  readonly bot?: boolean;
}

/** One REST request as received and answered. */
export interface FakeRestCall {
  readonly method: string;
  /** Path below `/api/v10`, e.g. `/channels/123/messages`. */
  readonly path: string;
  readonly query: Record<string, string>;
  readonly authorization: string | undefined;
  readonly body: any;
  readonly files: { name: string; contentType: string; bytes: Buffer }[];
  status: number;
}

/** A gateway frame a client sent. */
export interface FakeGatewayFrame {
  readonly op: number;
  readonly d: any;
  readonly path: string;
}

export interface FakeMessage {
  readonly id: string;
  readonly channel_id: string;
  readonly guild_id?: string;
  readonly author: FakeDiscordUser;
  content: string;
  components: any[];
  attachments: FakeAttachment[];
  edits: number;
  deleted: boolean;
}

export interface FakeAttachment {
  readonly id: string;
  readonly filename: string;
  readonly size: number;
  readonly content_type: string;
  readonly url: string;
}

interface Session {
  readonly id: string;
  seq: number;
  /** Every dispatch of the session, for replay on RESUME. */
  readonly log: { op: 0; t: string; s: number; d: unknown }[];
  socket: WebSocket | null;
  alive: boolean;
}

interface Channel {
  readonly id: string;
  readonly type: number;
  readonly guild_id?: string;
  readonly parent_id?: string;
  readonly recipient?: FakeDiscordUser;
  name?: string;
}

/** A server: its owner and members (the bot is one of them). */
export interface FakeGuild {
  readonly id: string;
  readonly ownerId: string;
  readonly members: FakeDiscordUser[];
}

const API = "/api/v10";

export class FakeDiscord {
  readonly token: string;
  readonly applicationId = "900000000000000001";
  readonly bot: FakeDiscordUser = { id: "900000000000000002", username: "coffer-bot", bot: true };
  readonly calls: FakeRestCall[] = [];
  readonly frames: FakeGatewayFrame[] = [];
  /** Close codes of client sockets, in order. */
  readonly closes: number[] = [];
  readonly sessions: Session[] = [];
  readonly messages: FakeMessage[] = [];
  readonly commands: any[] = [];
  /** Interaction callbacks received: the interaction id, its callback type and data. */
  readonly callbacks: { interactionId: string; type: number; data: any }[] = [];
  private readonly channels = new Map<string, Channel>();
  readonly guilds = new Map<string, FakeGuild>();
  /** While true, the bot lacks Create Public Threads: opening one is refused 403 / 50013, as Discord does. */
  denyThreads = false;
  /**
   * Channels whose message creates fail with a 503: "refuse" before anything is stored, "lose"
   * after it (the message is posted but its answer never arrives, as when a connection drops).
   */
  private readonly failing = new Map<string, "refuse" | "lose">();
  /** Which bot message a button interaction came from, for a type-7 (update message) callback. */
  private readonly tappedMessages = new Map<string, string>();
  /** Messages created with an enforced nonce, by channel and nonce. */
  private readonly nonces = new Map<string, FakeMessage>();
  private readonly files = new Map<string, { bytes: Buffer; contentType: string }>();
  private readonly changed = new EventEmitter();
  private nextId = 1n;
  private rateLimits: { retryAfter: number; global: boolean }[] = [];
  private readonly wss = new WebSocketServer({ noServer: true });

  private constructor(
    private readonly server: http.Server,
    token: string,
    private readonly heartbeatIntervalMs: number,
  ) {
    this.token = token;
    this.changed.setMaxListeners(0);
  }

  /**
   * Discord's per-channel bucket for message edits, announced on every PATCH with
   * `X-RateLimit-*` headers and enforced with a 429 when overrun. Off unless given.
   */
  private editBucket: { limit: number; windowMs: number } | null = null;
  private readonly editWindows = new Map<string, { resetAt: number; used: number }>();

  static async start(options: { token?: string; heartbeatIntervalMs?: number; editBucket?: { limit: number; windowMs: number } } = {}): Promise<FakeDiscord> {
    const server = http.createServer();
    const fake = new FakeDiscord(server, options.token ?? "fake-discord-token.abc.def", options.heartbeatIntervalMs ?? 41_250);
    fake.editBucket = options.editBucket ?? null;
    server.on("request", (req, res) => void fake.handle(req, res));
    server.on("upgrade", (req, socket, head) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path !== "/gateway" && path !== "/resume") return socket.destroy();
      fake.wss.handleUpgrade(req, socket, head, (ws) => fake.attach(ws, path));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  /** What @discordjs/rest takes as `api` (it appends `/v10`). */
  get apiRoot(): string {
    return `${this.origin}/api`;
  }
  get gatewayUrl(): string {
    return this.origin.replace("http:", "ws:") + "/gateway";
  }
  get resumeUrl(): string {
    return this.origin.replace("http:", "ws:") + "/resume";
  }

  /** Resolves with the first truthy value of `check`, re-checked whenever the fake's state changes. */
  until<T>(check: () => T | undefined | null | false): Promise<T> {
    return new Promise((resolve) => {
      const test = () => {
        const value = check();
        if (value) {
          this.changed.off("change", test);
          resolve(value);
        }
      };
      this.changed.on("change", test);
      test();
    });
  }

  private touch() {
    this.changed.emit("change");
  }

  snowflake(): string {
    // Discord ids grow with time; a counter above a fixed epoch keeps them ordered as BigInts.
    return (1_200_000_000_000_000_000n + this.nextId++).toString();
  }

  // ---- what users do -------------------------------------------------------------------------

  /** A DM channel between the bot and `user` (created on first use, as Discord does). */
  dmChannel(user: FakeDiscordUser): string {
    for (const c of this.channels.values()) if (c.type === 1 && c.recipient?.id === user.id) return c.id;
    const id = this.snowflake();
    this.channels.set(id, { id, type: 1, recipient: user });
    return id;
  }

  guildChannel(guildId: string, name = "general"): string {
    const id = this.snowflake();
    this.channels.set(id, { id, type: 0, guild_id: guildId, name });
    return id;
  }

  /** A server owned by `owner`, holding the owner, the bot and `others`; its id. */
  addGuild(owner: FakeDiscordUser, others: FakeDiscordUser[] = []): string {
    const id = this.snowflake();
    this.guilds.set(id, { id, ownerId: owner.id, members: [owner, this.bot, ...others] });
    this.dispatch("GUILD_CREATE", { id, name: "server", owner_id: owner.id, member_count: 2 + others.length, channels: [], threads: [], unavailable: false });
    return id;
  }

  /** Someone joins the server (Discord tells a bot only with the privileged members intent: nothing is dispatched). */
  addMember(guildId: string, user: FakeDiscordUser) {
    this.guilds.get(guildId)!.members.push(user);
    this.touch();
  }

  /** A channel's name (a thread's, once opened or renamed). */
  channelName(channelId: string): string | undefined {
    return this.channels.get(channelId)?.name;
  }

  /** The threads under a text channel, oldest first. */
  threadsOf(parentId: string): string[] {
    return [...this.channels.values()].filter((c) => c.parent_id === parentId).map((c) => c.id);
  }

  /** Message creates in `channelId` fail with a 503 until `null` is given (see `failing`). */
  failMessagesIn(channelId: string, mode: "refuse" | "lose" | null) {
    if (mode) this.failing.set(channelId, mode);
    else this.failing.delete(channelId);
  }

  /** A public thread under a guild text channel; THREAD_CREATE is dispatched. */
  thread(parentId: string, name: string): string {
    const parent = this.channels.get(parentId)!;
    const id = this.snowflake();
    const channel: Channel = { id, type: 11, guild_id: parent.guild_id!, parent_id: parentId, name };
    this.channels.set(id, channel);
    this.dispatch("THREAD_CREATE", { ...channel, name, newly_created: true });
    return id;
  }

  /** A file on the fake CDN, to attach to a user's message. */
  addFile(filename: string, bytes: Buffer, contentType = "application/octet-stream"): FakeAttachment {
    const id = this.snowflake();
    const path = `/attachments/0/${id}/${encodeURIComponent(filename)}`;
    this.files.set(path, { bytes, contentType });
    return { id, filename, size: bytes.length, content_type: contentType, url: `${this.origin}${path}?ex=1&is=1&hm=0` };
  }

  /** A user writes in a channel (a DM by default): stored in history and dispatched as MESSAGE_CREATE. */
  userSays(from: FakeDiscordUser, content: string, options: { channelId?: string; attachments?: FakeAttachment[] } = {}): FakeMessage {
    const channelId = options.channelId ?? this.dmChannel(from);
    const channel = this.channels.get(channelId)!;
    const message = this.store(channelId, from, content, [], options.attachments ?? []);
    this.dispatch("MESSAGE_CREATE", this.wire(message, channel.guild_id));
    return message;
  }

  /**
   * Where an interaction happened, as Discord describes it: the partial channel (a thread's with
   * its parent) and, in a server, the guild and the member instead of the bare user.
   */
  private interactionPlace(from: FakeDiscordUser, channelId: string) {
    const channel = this.channels.get(channelId);
    const partial = { id: channelId, type: channel?.type ?? 1, ...(channel?.guild_id ? { guild_id: channel.guild_id } : {}), ...(channel?.parent_id ? { parent_id: channel.parent_id } : {}) };
    return {
      channel_id: channelId,
      channel: partial,
      ...(channel?.guild_id ? { guild_id: channel.guild_id, member: { user: from, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false, flags: 0 } } : { user: from }),
    };
  }

  /** A user runs a slash command (in a DM unless `channelId`): INTERACTION_CREATE type 2. Returns the interaction id. */
  userRuns(from: FakeDiscordUser, name: string, options: Record<string, string | number | boolean> = {}, where: { channelId?: string } = {}): string {
    const channelId = where.channelId ?? this.dmChannel(from);
    const id = this.snowflake();
    this.dispatch("INTERACTION_CREATE", {
      id,
      application_id: this.applicationId,
      type: 2,
      token: `itok-${id}`,
      version: 1,
      ...this.interactionPlace(from, channelId),
      data: {
        id: this.commands.find((c) => c.name === name)?.id ?? this.snowflake(),
        name,
        type: 1,
        options: Object.entries(options).map(([key, value]) => ({ name: key, type: typeof value === "number" ? 10 : typeof value === "boolean" ? 5 : 3, value })),
      },
    });
    return id;
  }

  /** A user taps a button under one of the bot's messages: INTERACTION_CREATE type 3. */
  userTaps(from: FakeDiscordUser, messageId: string, customId: string): string {
    const message = this.messages.find((m) => m.id === messageId)!;
    const id = this.snowflake();
    this.tappedMessages.set(id, messageId);
    this.dispatch("INTERACTION_CREATE", {
      id,
      application_id: this.applicationId,
      type: 3,
      token: `itok-${id}`,
      version: 1,
      ...this.interactionPlace(from, message.channel_id),
      message: this.wire(message, message.guild_id),
      data: { custom_id: customId, component_type: 2 },
    });
    return id;
  }

  // ---- faults --------------------------------------------------------------------------------

  /** The next `count` REST requests are answered 429 with `retry_after` seconds (fractions allowed). */
  rateLimitNext(count = 1, options: { retryAfter?: number; global?: boolean } = {}) {
    for (let i = 0; i < count; i++) this.rateLimits.push({ retryAfter: options.retryAfter ?? 0.05, global: options.global ?? false });
  }

  /** Op 7 RECONNECT on every live socket: the client must reconnect and RESUME. */
  forceReconnect() {
    for (const s of this.sessions) if (s.socket) s.socket.send(JSON.stringify({ op: 7, d: null }));
  }

  /** Closes every live socket with a resumable code (4000 unknown error), as a gateway restart does. */
  dropSockets(code = 4000) {
    for (const s of this.sessions) {
      s.socket?.close(code, "fake: dropped");
      s.socket = null;
    }
  }

  /** Kills every session (op 9 INVALID_SESSION, d:false): no resume; the client must IDENTIFY anew. */
  killSessions() {
    for (const s of this.sessions) {
      s.alive = false;
      s.socket?.send(JSON.stringify({ op: 9, d: false }));
      s.socket = null;
    }
  }

  /** What the user sees in a channel, oldest first, deleted messages gone. */
  channelMessages(channelId: string): FakeMessage[] {
    return this.messages.filter((m) => m.channel_id === channelId && !m.deleted);
  }

  async close() {
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- gateway -------------------------------------------------------------------------------

  private dispatch(t: string, d: unknown) {
    for (const s of this.sessions) {
      if (!s.alive) continue;
      const frame = { op: 0 as const, t, s: ++s.seq, d };
      s.log.push(frame);
      s.socket?.send(JSON.stringify(frame));
    }
    this.touch();
  }

  private attach(ws: WebSocket, path: string) {
    let session: Session | null = null;
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatIntervalMs } }));
    ws.on("message", (raw) => {
      const frame = JSON.parse(String(raw)) as { op: number; d: any };
      this.frames.push({ op: frame.op, d: frame.d, path });
      if (frame.op === 1) ws.send(JSON.stringify({ op: 11 }));
      else if (frame.op === 2) session = this.identify(ws, frame.d);
      else if (frame.op === 6) session = this.resume(ws, frame.d);
      this.touch();
    });
    ws.on("close", (code) => {
      this.closes.push(code);
      if (session && session.socket === ws) {
        session.socket = null;
        // A clean close ends the session on Discord; any other code keeps it resumable.
        if (code === 1000 || code === 1001) session.alive = false;
      }
      this.touch();
    });
  }

  private identify(ws: WebSocket, d: any): Session | null {
    if (d?.token !== this.token) {
      ws.close(4004, "Authentication failed.");
      return null;
    }
    const session: Session = { id: `sess-${this.snowflake()}`, seq: 0, log: [], socket: ws, alive: true };
    this.sessions.push(session);
    const frame = {
      op: 0 as const,
      t: "READY",
      s: ++session.seq,
      d: {
        v: 10,
        user: this.bot,
        guilds: [],
        session_id: session.id,
        resume_gateway_url: this.resumeUrl,
        shard: d.shard ?? [0, 1],
        application: { id: this.applicationId, flags: 0 },
      },
    };
    session.log.push(frame);
    ws.send(JSON.stringify(frame));
    return session;
  }

  private resume(ws: WebSocket, d: any): Session | null {
    const session = this.sessions.find((s) => s.id === d?.session_id);
    if (d?.token !== this.token || !session || !session.alive) {
      ws.send(JSON.stringify({ op: 9, d: false }));
      return null;
    }
    session.socket = ws;
    for (const frame of session.log) if (frame.s > Number(d.seq ?? 0) && frame.t !== "READY") ws.send(JSON.stringify(frame));
    const resumed = { op: 0 as const, t: "RESUMED", s: ++session.seq, d: {} };
    session.log.push(resumed);
    ws.send(JSON.stringify(resumed));
    return session;
  }

  // ---- REST ----------------------------------------------------------------------------------

  private store(channelId: string, author: FakeDiscordUser, content: string, components: any[], attachments: FakeAttachment[]): FakeMessage {
    const channel = this.channels.get(channelId);
    const message: FakeMessage = {
      id: this.snowflake(),
      channel_id: channelId,
      ...(channel?.guild_id ? { guild_id: channel.guild_id } : {}),
      author,
      content,
      components,
      attachments,
      edits: 0,
      deleted: false,
    };
    this.messages.push(message);
    return message;
  }

  private wire(m: FakeMessage, guildId?: string) {
    return {
      id: m.id,
      type: 0,
      channel_id: m.channel_id,
      ...(guildId ? { guild_id: guildId } : {}),
      author: { ...m.author, discriminator: "0", global_name: m.author.username, avatar: null },
      content: m.content,
      timestamp: new Date().toISOString(),
      edited_timestamp: m.edits > 0 ? new Date().toISOString() : null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: m.attachments.map((a) => ({ ...a, proxy_url: a.url })),
      embeds: [],
      pinned: false,
      components: m.components,
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", this.origin);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);

    const cdn = this.files.get(url.pathname);
    if (req.method === "GET" && cdn) {
      res.writeHead(200, { "content-type": cdn.contentType, "content-length": cdn.bytes.length });
      res.end(cdn.bytes);
      return;
    }

    const call: FakeRestCall = {
      method: req.method ?? "GET",
      path: decodeURIComponent(url.pathname.startsWith(API) ? url.pathname.slice(API.length) : url.pathname),
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      body: null,
      files: [],
      status: 0,
    };
    const contentType = req.headers["content-type"] ?? "";
    if (contentType.startsWith("multipart/form-data")) {
      const form = await new Response(raw, { headers: { "content-type": contentType } }).formData();
      for (const [key, value] of form) {
        if (key === "payload_json") (call as { body: any }).body = JSON.parse(String(value));
        else if (typeof value !== "string") call.files.push({ name: value.name, contentType: value.type, bytes: Buffer.from(await value.arrayBuffer()) });
      }
    } else if (raw.length > 0) {
      (call as { body: any }).body = JSON.parse(raw.toString("utf8"));
    }
    this.calls.push(call);

    const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      call.status = status;
      res.writeHead(status, body === undefined ? headers : { "content-type": "application/json", ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
      this.touch();
    };

    if (!url.pathname.startsWith(API)) return answer(404, { message: "404: Not Found", code: 0 });
    // Interaction callbacks are authorised by the interaction's token in the path, not the bot's.
    const tokenInPath = call.path.startsWith("/interactions/");
    if (!tokenInPath && call.authorization !== `Bot ${this.token}`) return answer(401, { message: "401: Unauthorized", code: 0 });
    const limit = this.rateLimits.shift();
    if (limit) {
      return answer(
        429,
        { message: "You are being rate limited.", retry_after: limit.retryAfter, global: limit.global },
        {
          "retry-after": String(limit.retryAfter),
          "x-ratelimit-limit": "5",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset-after": String(limit.retryAfter),
          "x-ratelimit-bucket": "fake-bucket",
          "x-ratelimit-scope": limit.global ? "global" : "user",
          ...(limit.global ? { "x-ratelimit-global": "true" } : {}),
        },
      );
    }
    if (call.method === "PATCH" && this.editBucket && /^\/channels\/\d+\/messages\/\d+$/.test(call.path)) {
      const bucket = this.editBucket;
      const channelId = call.path.split("/")[2]!;
      const now = Date.now();
      let window = this.editWindows.get(channelId);
      if (!window || now >= window.resetAt) this.editWindows.set(channelId, (window = { resetAt: now + bucket.windowMs, used: 0 }));
      const resetAfter = String(Math.max(0, window.resetAt - now) / 1000);
      const headers = { "x-ratelimit-limit": String(bucket.limit), "x-ratelimit-reset-after": resetAfter, "x-ratelimit-bucket": `edit-${channelId}` };
      if (window.used >= bucket.limit) {
        return answer(429, { message: "You are being rate limited.", retry_after: Number(resetAfter), global: false }, {
          ...headers,
          "x-ratelimit-remaining": "0",
          "retry-after": resetAfter,
          "x-ratelimit-scope": "user",
        });
      }
      window.used += 1;
      return this.route(call, (status, body) => answer(status, body, { ...headers, "x-ratelimit-remaining": String(bucket.limit - window.used) }));
    }
    this.route(call, answer);
  }

  private route(call: FakeRestCall, answer: (status: number, body?: unknown) => void) {
    const parts = call.path.split("/").filter(Boolean);
    const body = call.body ?? {};
    const tooLong = (content: unknown) => typeof content === "string" && [...content].length > 2000;
    const formError = () =>
      answer(400, {
        message: "Invalid Form Body",
        code: 50035,
        errors: { content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] } },
      });
    const uploaded = () =>
      call.files.map((f) => {
        const a = this.addFile(f.name, f.bytes, f.contentType);
        return a;
      });

    if (call.method === "GET" && call.path === "/gateway/bot") {
      return answer(200, {
        url: this.gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
      });
    }
    if (call.method === "GET" && call.path === "/users/@me") return answer(200, this.bot);
    if (call.method === "GET" && call.path === "/applications/@me") return answer(200, { id: this.applicationId, name: "coffer", bot: this.bot });
    if (call.method === "POST" && call.path === "/users/@me/channels") {
      const recipient = { id: String(body.recipient_id), username: `user-${body.recipient_id}` };
      const id = this.dmChannel(recipient);
      return answer(200, { id, type: 1, recipients: [recipient] });
    }
    if (call.method === "PUT" && parts[0] === "applications" && parts[2] === "commands") {
      this.commands.splice(0, this.commands.length, ...(body as any[]).map((c) => ({ id: this.snowflake(), application_id: parts[1], version: "1", ...c })));
      return answer(200, this.commands);
    }
    if (parts[0] === "interactions" && parts[3] === "callback" && call.method === "POST") {
      this.callbacks.push({ interactionId: parts[1]!, type: body.type, data: body.data });
      if (tooLong(body.data?.content)) return formError();
      const tapped = this.messages.find((m) => m.id === this.tappedMessages.get(parts[1]!));
      if (body.type === 7 && tapped) {
        if (body.data?.content !== undefined) tapped.content = body.data.content;
        if (body.data?.components !== undefined) tapped.components = body.data.components;
        tapped.edits += 1;
      }
      return answer(204);
    }
    if (call.method === "GET" && parts[0] === "guilds" && parts.length === 2) {
      const guild = this.guilds.get(parts[1]!);
      if (!guild) return answer(404, { message: "Unknown Guild", code: 10004 });
      const counts = call.query.with_counts === "true" ? { approximate_member_count: guild.members.length, approximate_presence_count: 1 } : {};
      return answer(200, { id: guild.id, name: "server", owner_id: guild.ownerId, roles: [], emojis: [], features: [], ...counts });
    }
    if (call.method === "POST" && parts[0] === "channels" && parts[2] === "threads" && parts.length === 3) {
      const parent = this.channels.get(parts[1]!);
      if (!parent?.guild_id) return answer(404, { message: "Unknown Channel", code: 10003 });
      if (this.denyThreads) return answer(403, { message: "Missing Permissions", code: 50013 });
      const name = String(body.name ?? "");
      if (name.length < 1 || [...name].length > 100) return answer(400, { message: "Invalid Form Body", code: 50035 });
      const id = this.snowflake();
      const thread: Channel = { id, type: Number(body.type ?? 11), guild_id: parent.guild_id, parent_id: parent.id, name };
      this.channels.set(id, thread);
      this.dispatch("THREAD_CREATE", { ...thread, newly_created: true });
      return answer(201, { ...thread, thread_metadata: { archived: false, auto_archive_duration: body.auto_archive_duration ?? 1440, locked: false } });
    }
    if (call.method === "PATCH" && parts[0] === "channels" && parts.length === 2) {
      const channel = this.channels.get(parts[1]!);
      if (!channel) return answer(404, { message: "Unknown Channel", code: 10003 });
      if (body.name !== undefined) {
        if ([...String(body.name)].length > 100) return answer(400, { message: "Invalid Form Body", code: 50035 });
        channel.name = String(body.name);
      }
      this.dispatch("THREAD_UPDATE", { ...channel });
      return answer(200, { ...channel });
    }
    if (call.method === "GET" && parts[0] === "channels" && parts.length === 2) {
      const channel = this.channels.get(parts[1]!);
      if (!channel) return answer(404, { message: "Unknown Channel", code: 10003 });
      const { recipient, ...rest } = channel;
      return answer(200, { ...rest, ...(recipient ? { recipients: [recipient] } : {}) });
    }
    if (parts[0] === "channels" && parts[2] === "messages") {
      const channelId = parts[1]!;
      if (!this.channels.has(channelId)) return answer(404, { message: "Unknown Channel", code: 10003 });
      const messageId = parts[3];
      if (call.method === "GET" && !messageId) {
        // Newest first, as Discord lists a channel.
        const after = call.query.after ? BigInt(call.query.after) : -1n;
        const limit = Number(call.query.limit ?? 50);
        const found = this.channelMessages(channelId).filter((m) => BigInt(m.id) > after);
        return answer(200, found.slice(0, limit).reverse().map((m) => this.wire(m, m.guild_id)));
      }
      if (call.method === "POST" && !messageId) {
        if (tooLong(body.content)) return formError();
        if (call.files.reduce((n, f) => n + f.bytes.length, 0) > 10 * 1024 * 1024) {
          return answer(413, { message: "Request entity too large", code: 40005 });
        }
        // Discord's enforced nonce: the same nonce again (within minutes) returns the first message, creates none.
        const nonceKey = body.enforce_nonce && body.nonce !== undefined ? `${channelId}:${String(body.nonce)}` : null;
        const earlier = nonceKey ? this.nonces.get(nonceKey) : undefined;
        const failing = this.failing.get(channelId);
        if (failing === "refuse") return answer(503, { message: "Service Unavailable", code: 0 });
        const m = earlier ?? this.store(channelId, this.bot, body.content ?? "", body.components ?? [], uploaded());
        if (nonceKey && !earlier) this.nonces.set(nonceKey, m);
        // Posted (once, by its nonce), but the answer is lost: the sender cannot know it went.
        if (failing === "lose") return answer(503, { message: "Service Unavailable", code: 0 });
        return answer(200, this.wire(m, m.guild_id));
      }
      const message = this.messages.find((m) => m.id === messageId && m.channel_id === channelId && !m.deleted);
      if (!message) return answer(404, { message: "Unknown Message", code: 10008 });
      if (call.method === "PATCH") {
        if (tooLong(body.content)) return formError();
        if (body.content !== undefined) message.content = body.content;
        if (body.components !== undefined) message.components = body.components;
        message.edits += 1;
        return answer(200, this.wire(message, message.guild_id));
      }
      if (call.method === "DELETE") {
        message.deleted = true;
        return answer(204);
      }
    }
    return answer(404, { message: "404: Not Found", code: 0 });
  }
}

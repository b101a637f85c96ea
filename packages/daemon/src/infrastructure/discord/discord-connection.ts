/**
 * One bot's link to Discord through the @discordjs trio: `@discordjs/rest` (its `api` option is
 * the API root; it queues per route bucket and waits out 429s itself), `@discordjs/ws` (the
 * gateway URL comes from GET /gateway/bot on that root, or the `gatewayUrl` override) and
 * `@discordjs/core`'s typed `API` over the REST client.
 *
 * Exactly once: the library's own session store is replaced by this connection's, so the
 * session (id, sequence, resume URL) can be persisted as `DiscordCursor` and a restarted daemon
 * RESUMEs where the last *handled* dispatch left off. Every inbound event is handled in order on
 * one chain; a message is delivered only if its id is newer than the newest delivered in its
 * channel (snowflakes grow), which drops replays; after a fresh IDENTIFY (the old session was
 * invalid, so the gateway will never replay the gap) each known channel's history is read
 * after its newest delivered id, so nothing said during the gap is lost.
 *
 * The token is given to the libraries only; nothing here logs, and errors raised to callers
 * carry Discord's status and code, never the request's headers.
 */
import {
  API,
  ApplicationCommandOptionType,
  ButtonStyle,
  ChannelType,
  ComponentType,
  GatewayDispatchEvents,
  GatewayIntentBits,
  InteractionType,
  MessageFlags,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIInteraction,
  type APIMessage,
  type GatewayDispatchPayload,
  type RESTGetAPIGatewayBotResult,
} from "@discordjs/core";
import { REST, RESTEvents, type RawFile } from "@discordjs/rest";
import {
  WebSocketManager,
  WebSocketShardEvents,
  type IIdentifyThrottler,
  type SessionInfo,
} from "@discordjs/ws";
import { Readable } from "node:stream";
import { splitDiscordText } from "./discord-split.js";
import type {
  DiscordButton,
  DiscordCursor,
  DiscordInbound,
  DiscordOutgoing,
  DiscordSlashCommand,
} from "./discord-events.js";

export interface DiscordConnectionOptions {
  readonly token: string;
  /** The REST root, as @discordjs/rest's `api` (it appends `/v10`): Discord's, or a fake's. */
  readonly apiRoot: string;
  /** Overrides the gateway URL Discord announces on GET /gateway/bot. */
  readonly gatewayUrl?: string;
  /** Where a restarted connection picks up (the last cursor handed to `onCursor`). */
  readonly cursor?: DiscordCursor;
  /** Called after each handled event with the cursor to persist. */
  readonly onCursor?: (cursor: DiscordCursor) => void;
  /**
   * Receives every inbound event, in order; the next waits until this settles. `after` is the
   * cursor as it stands once this event is handled (its sequence and its message id counted), for
   * a caller that persists per event rather than per dispatch.
   */
  readonly onEvent: (event: DiscordInbound, after: DiscordCursor) => void | Promise<void>;
  /**
   * Spacing between two IDENTIFYs. Discord allows `max_concurrency` per 5 s; the library's
   * default throttler waits that out. Tests against the fake shorten it.
   */
  readonly identifySpacingMs?: number;
  /**
   * A gateway failure the library does not recover from by itself (bad token, disallowed
   * intents): the message only, never the token.
   */
  readonly onGatewayError?: (message: string) => void;
  /** REST request timeout. */
  readonly timeoutMs?: number;
}

export interface DiscordRateLimit {
  readonly route: string;
  readonly retryAfterMs: number;
  readonly global: boolean;
}

const INTENTS =
  GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.DirectMessages | GatewayIntentBits.MessageContent;

const STYLES: Record<NonNullable<DiscordButton["style"]>, APIButtonComponentWithCustomId["style"]> = { primary: ButtonStyle.Primary, secondary: ButtonStyle.Secondary, success: ButtonStyle.Success, danger: ButtonStyle.Danger };

/** One identify at a time, `spacingMs` apart — Discord's rule with max_concurrency 1. */
class SpacedIdentify implements IIdentifyThrottler {
  private next = 0;
  private queue: Promise<void> = Promise.resolve();
  constructor(private readonly spacingMs: number) {}
  waitForIdentify(_shardId: number, signal: AbortSignal): Promise<void> {
    const turn = this.queue.then(async () => {
      const wait = this.next - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      signal.throwIfAborted();
      this.next = Date.now() + this.spacingMs;
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }
}

/** A manager whose gateway URL can be pinned (Discord's answer otherwise). */
class PinnedGatewayManager extends WebSocketManager {
  gatewayUrlOverride: string | undefined;
  override async fetchGatewayInformation(force = false): Promise<RESTGetAPIGatewayBotResult> {
    const info = await super.fetchGatewayInformation(force);
    return this.gatewayUrlOverride ? { ...info, url: this.gatewayUrlOverride } : info;
  }
}

export class DiscordConnection {
  private readonly rest: REST;
  private readonly api: API;
  private readonly gateway: PinnedGatewayManager;
  private session: SessionInfo | null;
  /** The sequence of the last dispatch whose handling finished. */
  private handledSequence: number;
  private readonly lastMessageIds: Map<string, string>;
  private readonly seenInteractions = new Set<string>();
  /** Guild channel id → the channel a thread hangs under, or null for a plain channel. */
  private readonly threadParents = new Map<string, string | null>();
  private chain: Promise<void> = Promise.resolve();
  /** The sequence of the dispatch being handled now (null between dispatches). */
  private current: number | null = null;
  private applicationId: string | null = null;
  private botUserId: string | null = null;
  private readonly rateLimitListeners = new Set<(limit: DiscordRateLimit) => void>();

  constructor(private readonly options: DiscordConnectionOptions) {
    this.rest = new REST({ api: options.apiRoot, timeout: options.timeoutMs ?? 15_000 }).setToken(options.token);
    this.rest.on(RESTEvents.RateLimited, (info) => {
      for (const listener of this.rateLimitListeners) listener({ route: info.route, retryAfterMs: info.retryAfter, global: info.global });
    });
    this.api = new API(this.rest);
    this.session = null;
    this.handledSequence = 0;
    this.lastMessageIds = new Map();
    this.resumeFrom(options.cursor ?? null);
    const spacing = options.identifySpacingMs ?? 5_000;
    this.gateway = new PinnedGatewayManager({
      token: options.token,
      intents: INTENTS,
      rest: this.rest,
      shardCount: 1,
      buildIdentifyThrottler: async () => new SpacedIdentify(spacing),
      retrieveSessionInfo: () => this.session,
      updateSessionInfo: (_shardId, info) => {
        // A new session numbers its dispatches from 1 again.
        if (info && info.sessionId !== this.session?.sessionId) this.handledSequence = 0;
        this.session = info;
      },
    });
    this.gateway.gatewayUrlOverride = options.gatewayUrl;
    this.gateway.on(WebSocketShardEvents.Dispatch, (payload) => this.enqueue(payload));
    // Without a listener the emitter would throw the error out of the socket's callback.
    this.gateway.on(WebSocketShardEvents.Error, (error) => options.onGatewayError?.(scrub(error.message, options.token)));
  }

  /** Where the next `start` picks up (a cursor persisted elsewhere); before `start` only. */
  resumeFrom(cursor: DiscordCursor | null): void {
    this.session = cursor?.session
      ? { sessionId: cursor.session.id, sequence: cursor.session.sequence, resumeURL: cursor.session.resumeUrl, shardId: 0, shardCount: 1 }
      : null;
    this.handledSequence = cursor?.session?.sequence ?? 0;
    this.lastMessageIds.clear();
    for (const [channelId, id] of Object.entries(cursor?.lastMessageIds ?? {})) this.lastMessageIds.set(channelId, id);
  }

  /** The bot's own user (REST only, no gateway): who the token belongs to. */
  async whoAmI(): Promise<{ id: string; username: string; name: string }> {
    const me = await this.api.users.getCurrent();
    this.botUserId = me.id;
    return { id: me.id, username: me.username, name: me.global_name ?? me.username };
  }

  /** The application id slash commands are registered under (asked once). */
  private async application(): Promise<string> {
    if (!this.applicationId) {
      const me = this.botUserId ?? (await this.whoAmI()).id;
      const app = await this.api.applications.getCurrent().catch(() => null);
      this.applicationId = app?.id ?? me;
    }
    return this.applicationId;
  }

  /** Connects; resolves once the gateway said READY or RESUMED. */
  async start(): Promise<{ applicationId: string; botUserId: string }> {
    const me = await this.whoAmI();
    const applicationId = await this.application();
    await this.gateway.connect();
    return { applicationId, botUserId: me.id };
  }

  /**
   * Disconnects. `keepSession` closes with a resumable code and leaves the cursor's session in
   * place, so the next start RESUMEs (a daemon restart); otherwise the session ends.
   */
  async stop(options: { keepSession?: boolean } = {}): Promise<void> {
    const kept = this.session;
    await this.gateway.destroy(options.keepSession ? { code: 4200, reason: "restarting" } : { reason: "stopping" });
    if (options.keepSession) this.session = kept;
    await this.chain;
  }

  cursor(): DiscordCursor {
    const s = this.session;
    return {
      session: s ? { id: s.sessionId, sequence: Math.min(s.sequence, this.handledSequence), resumeUrl: s.resumeURL } : null,
      lastMessageIds: Object.fromEntries(this.lastMessageIds),
    };
  }

  onRateLimited(listener: (limit: DiscordRateLimit) => void): () => void {
    this.rateLimitListeners.add(listener);
    return () => this.rateLimitListeners.delete(listener);
  }

  // ---- outbound ------------------------------------------------------------------------------

  async openDm(userId: string): Promise<string> {
    return (await this.api.users.createDM(userId)).id;
  }

  /** Sends one message (content within 2,000; use `sendText` for longer text). */
  async send(channelId: string, message: DiscordOutgoing): Promise<{ id: string }> {
    const sent = await this.api.channels.createMessage(channelId, {
      content: message.content,
      components: rows(message.buttons),
      ...(message.files?.length ? { files: message.files.map(rawFile) } : {}),
      ...(message.nonce ? { nonce: message.nonce, enforce_nonce: true } : {}),
      allowed_mentions: { parse: [] },
    });
    return { id: sent.id };
  }

  /** Sends text of any length as several messages cut by `splitDiscordText`; buttons go under the last. */
  async sendText(channelId: string, text: string, buttons?: DiscordOutgoing["buttons"]): Promise<{ ids: string[] }> {
    const parts = splitDiscordText(text);
    const ids: string[] = [];
    for (const [i, part] of parts.entries()) {
      const last = i === parts.length - 1;
      ids.push((await this.send(channelId, { content: part, ...(last && buttons ? { buttons } : {}) })).id);
    }
    return { ids };
  }

  async edit(channelId: string, messageId: string, message: Omit<DiscordOutgoing, "files">): Promise<void> {
    await this.api.channels.editMessage(channelId, messageId, { content: message.content, components: rows(message.buttons) });
  }

  async delete(channelId: string, messageId: string): Promise<void> {
    await this.api.channels.deleteMessage(channelId, messageId);
  }

  /**
   * Answers an interaction within Discord's 3 s: a reply (optionally only visible to the
   * user), or — for a button — an update of the message the button sits under.
   */
  async answer(
    interaction: { interactionId: string; interactionToken: string },
    reply: Omit<DiscordOutgoing, "files"> & { ephemeral?: boolean; updateMessage?: boolean },
  ): Promise<void> {
    const data = { content: reply.content, components: rows(reply.buttons) };
    if (reply.updateMessage) {
      await this.api.interactions.updateMessage(interaction.interactionId, interaction.interactionToken, data);
    } else {
      await this.api.interactions.reply(interaction.interactionId, interaction.interactionToken, {
        ...data,
        ...(reply.ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
      });
    }
  }

  /** Replaces the bot's global slash commands with `commands`. */
  async registerCommands(commands: readonly DiscordSlashCommand[]): Promise<void> {
    const applicationId = await this.application();
    const types = { string: ApplicationCommandOptionType.String, integer: ApplicationCommandOptionType.Integer, boolean: ApplicationCommandOptionType.Boolean };
    await this.api.applicationCommands.bulkOverwriteGlobalCommands(
      applicationId,
      commands.map((c) => ({
        name: c.name,
        description: c.description,
        options: (c.options ?? []).map((o) => ({ name: o.name, description: o.description, type: types[o.type], required: o.required ?? false })),
      })) as never,
    );
  }

  /**
   * Streams an inbound attachment from the CDN. Only URLs on the API root's host or Discord's
   * CDN are fetched: a message cannot make the daemon request an arbitrary address.
   */
  async download(url: string): Promise<Readable> {
    const target = new URL(url);
    const allowed = new Set([new URL(this.options.apiRoot).host, "cdn.discordapp.com", "media.discordapp.net"]);
    if (!allowed.has(target.host)) throw new Error(`discord: refusing to download from ${target.host}`);
    const response = await fetch(target);
    if (!response.ok || !response.body) throw new Error(`discord: attachment download failed (${response.status})`);
    return Readable.fromWeb(response.body as never);
  }

  // ---- inbound -------------------------------------------------------------------------------

  private enqueue(payload: GatewayDispatchPayload) {
    this.chain = this.chain
      .then(() => {
        this.current = payload.s;
        return this.handle(payload);
      })
      .then(() => {
        this.current = null;
        if (payload.s > this.handledSequence || payload.t === GatewayDispatchEvents.Ready) this.handledSequence = payload.s;
        this.options.onCursor?.(this.cursor());
      })
      // One bad event must not stop the ones after it; the handler owns its own errors.
      .catch(() => {
        this.current = null;
      });
  }

  /** The cursor once the dispatch being handled is done, with `messageId` counted in its channel. */
  private cursorAfter(channelId: string, messageId: string | null): DiscordCursor {
    const s = this.session;
    const sequence = Math.max(this.handledSequence, this.current ?? 0);
    return {
      session: s ? { id: s.sessionId, sequence: Math.min(s.sequence, sequence), resumeUrl: s.resumeURL } : null,
      lastMessageIds: { ...Object.fromEntries(this.lastMessageIds), ...(messageId ? { [channelId]: messageId } : {}) },
    };
  }

  private async handle(payload: GatewayDispatchPayload): Promise<void> {
    switch (payload.t) {
      case GatewayDispatchEvents.Ready:
        // A new session: the gateway will never replay what the old one missed.
        await this.backfill();
        return;
      case GatewayDispatchEvents.ThreadCreate:
        if (payload.d.parent_id) this.threadParents.set(payload.d.id, payload.d.parent_id);
        return;
      case GatewayDispatchEvents.MessageCreate:
        await this.deliverMessage(payload.d);
        return;
      case GatewayDispatchEvents.InteractionCreate:
        await this.deliverInteraction(payload.d);
        return;
      default:
        return;
    }
  }

  private async backfill() {
    for (const [channelId, after] of [...this.lastMessageIds]) {
      let cursor = after;
      for (;;) {
        const page = await this.api.channels.getMessages(channelId, { after: cursor, limit: 100 });
        if (page.length === 0) break;
        const oldestFirst = [...page].sort((a, b) => compareIds(a.id, b.id));
        for (const message of oldestFirst) await this.deliverMessage(message);
        cursor = oldestFirst.at(-1)!.id;
        if (page.length < 100) break;
      }
    }
  }

  private async deliverMessage(message: APIMessage & { guild_id?: string }) {
    if (message.author.bot || message.author.id === this.botUserId) return;
    const last = this.lastMessageIds.get(message.channel_id);
    if (last && compareIds(message.id, last) <= 0) return;
    const after = this.cursorAfter(message.channel_id, message.id);
    await this.options.onEvent({
      kind: "message",
      id: message.id,
      channelId: message.channel_id,
      guildId: message.guild_id ?? null,
      threadParentId: message.guild_id ? await this.threadParent(message.channel_id) : null,
      author: { id: message.author.id, username: message.author.username },
      content: message.content,
      attachments: message.attachments.map((a) => ({
        id: a.id,
        filename: a.filename,
        size: a.size,
        contentType: a.content_type ?? null,
        url: a.url,
      })),
    }, after);
    this.lastMessageIds.set(message.channel_id, message.id);
  }

  /**
   * A thread's parent: known from THREAD_CREATE, else asked once (a restart misses the
   * THREAD_CREATE of a thread opened before it).
   */
  private async threadParent(channelId: string): Promise<string | null> {
    if (!this.threadParents.has(channelId)) {
      const channel = (await this.api.channels.get(channelId)) as { parent_id?: string | null; type: number };
      this.threadParents.set(channelId, isThread(channel.type) ? (channel.parent_id ?? null) : null);
    }
    return this.threadParents.get(channelId) ?? null;
  }

  /**
   * An interaction's thread parent: its partial channel says the type and, for a thread, the
   * parent; a payload without them is looked up as a message's channel is.
   */
  private async interactionThreadParent(interaction: APIInteraction): Promise<string | null> {
    if (!interaction.guild_id || !interaction.channel) return null;
    const channel = interaction.channel as { id: string; type?: number; parent_id?: string | null };
    if (channel.type !== undefined && !isThread(channel.type)) return null;
    if (channel.type !== undefined && channel.parent_id) {
      this.threadParents.set(channel.id, channel.parent_id);
      return channel.parent_id;
    }
    return this.threadParent(channel.id);
  }

  // ---- servers and threads -------------------------------------------------------------------

  /** The approximate member count (bot included) of the server a guild channel belongs to. */
  async guildMemberCount(channelId: string): Promise<number> {
    const channel = (await this.api.channels.get(channelId)) as { guild_id?: string };
    // A DM or group DM has no server: nothing there is a group the channel serves.
    if (!channel.guild_id) return 0;
    const guild = await this.api.guilds.get(channel.guild_id, { with_counts: true });
    return guild.approximate_member_count ?? 0;
  }

  /** Opens a public thread (archived after a week idle, Discord's longest) under a text channel; its id. */
  async createThread(channelId: string, name: string): Promise<string> {
    const thread = await this.api.channels.createThread(channelId, { name, type: ChannelType.PublicThread, auto_archive_duration: 10080 });
    // Known at once: the thread's first message needs no lookup of its parent.
    this.threadParents.set(thread.id, channelId);
    return thread.id;
  }

  async renameChannel(channelId: string, name: string): Promise<void> {
    await this.api.channels.edit(channelId, { name });
  }

  private async deliverInteraction(interaction: APIInteraction) {
    if (this.seenInteractions.has(interaction.id)) return;
    const user = interaction.user ?? interaction.member?.user;
    if (!user || !interaction.channel) return;
    const base = {
      interactionId: interaction.id,
      interactionToken: interaction.token,
      channelId: interaction.channel.id,
      guildId: interaction.guild_id ?? null,
      threadParentId: await this.interactionThreadParent(interaction),
      user: { id: user.id, username: user.username },
    };
    if (interaction.type === InteractionType.ApplicationCommand && "options" in interaction.data) {
      const options: Record<string, string | number | boolean> = {};
      for (const o of interaction.data.options ?? []) if ("value" in o) options[o.name] = o.value;
      await this.options.onEvent({ kind: "command", ...base, name: interaction.data.name, options }, this.cursorAfter(base.channelId, null));
    } else if (interaction.type === InteractionType.MessageComponent && interaction.data.component_type === ComponentType.Button) {
      await this.options.onEvent({ kind: "button", ...base, messageId: interaction.message.id, customId: interaction.data.custom_id }, this.cursorAfter(base.channelId, null));
    } else {
      return;
    }
    this.seenInteractions.add(interaction.id);
    if (this.seenInteractions.size > 1_000) this.seenInteractions.delete(this.seenInteractions.values().next().value!);
  }
}

function isThread(type: number): boolean {
  return type === ChannelType.PublicThread || type === ChannelType.PrivateThread || type === ChannelType.AnnouncementThread;
}

function scrub(text: string, token: string): string {
  return token ? text.split(token).join("[token]") : text;
}

/** Snowflakes as numbers: longer is newer, then lexical. */
function compareIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function rows(buttons: DiscordOutgoing["buttons"]): APIActionRowComponent<APIButtonComponentWithCustomId>[] {
  return (buttons ?? []).map((row) => ({
    type: ComponentType.ActionRow,
    components: row.map((b: DiscordButton) => ({
      type: ComponentType.Button,
      custom_id: b.id,
      label: b.label,
      style: STYLES[b.style ?? "secondary"],
      disabled: b.disabled ?? false,
    })),
  }));
}

function rawFile(file: { name: string; data: Buffer | Uint8Array; contentType?: string }): RawFile {
  return { name: file.name, data: file.data, ...(file.contentType ? { contentType: file.contentType } : {}) };
}

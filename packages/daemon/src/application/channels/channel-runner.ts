import type { PrincipalScope } from "../auth/principal-ports.js";
import type { ChatEvent } from "@coffer/protocol";
import type { AttachmentService } from "../attachments/attachment-service.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import { ALBUM_QUIET_MS } from "./album-gatherer.js";
import type { Clock, Logger } from "../ports.js";
import { CHAT_COMMANDS } from "./chat-commands.js";
import { Courier } from "./courier.js";
import type { InboundDeps } from "./inbound.js";
import { InboundHandler } from "./inbound.js";
import {
  PlatformFailure,
  type BotConnection,
  type ChannelLiveStatus,
  type ChatPlatform,
  type CredentialRefs,
  type CredentialValues,
  type UpdateSink,
} from "./ports.js";
import type { ChannelPlatforms } from "./platform-registry.js";
import { QuestionBoard } from "./question-board.js";
import { ChatThrottle, phoneClientPrefix, TurnRelay } from "./turn-relay.js";
import type { ChatQuestion } from "./inbound.js";


/** How many shown questions a button tap can still be traced to. */
const ASKED_KEPT = 100;
export interface ChannelTimings {
  /** Waits after failed deliveries (and an adapter's failed polls), by attempt; the last repeats. */
  readonly backoffMs: readonly number[];
  /** The least time between two progress edits in one chat. */
  readonly editIntervalMs: number;
  /** How long an album waits after its last part before it is sent. */
  readonly albumQuietMs: number;
  /** A file download silent this long is given up (the phone is told). */
  readonly fileStallMs: number;
}

export const DEFAULT_CHANNEL_TIMINGS: ChannelTimings = {
  backoffMs: [1000, 5000, 30_000],
  editIntervalMs: 1500,
  albumQuietMs: ALBUM_QUIET_MS,
  fileStallMs: 30_000,
};

export interface RunnerDeps
  extends Omit<InboundDeps, "elapsedMs" | "relayIfRunning" | "platformName" | "surface" | "openQuestions" | "ownerChanged" | "questionConversation" | "board" | "runningTurn" | "fetchFile" | "stopSignal" | "files" | "albumQuietMs" | "inScope" | "connection" | "threadWords"> {
  /** Where the owner's photos and documents are stored (the same store and cap as the page's uploads). */
  readonly attachments: Pick<AttachmentService, "upload" | "release" | "maxBytes">;
  /** Times albums' quiet windows and downloads' stall watch (tests move it by hand). */
  readonly alarms: AlarmClock;
  /** The registered platform adapters, by channel kind. */
  readonly platforms: ChannelPlatforms;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly timings: ChannelTimings;
  /** The channel's credentials, resolved at start and kept in memory only. */
  resolveCredentials(refs: CredentialRefs): CredentialValues;
  /** Each update is handled as this channel's principal (the audit names the channel). */
  readonly principals?: PrincipalScope;
  /** Where a shared file's bytes are when the courier sends it; null once it is gone. */
  readonly sharedFilePath?: (attachmentId: string) => string | null;
}

/**
 * One enabled channel: the adapter's update loop, whose cursor is persisted after every update
 * (so a restart neither loses nor repeats a phone message), the courier for everything outbound,
 * and a relay for every running turn of a conversation bound to it. Nothing here can throw
 * into the daemon: every failure becomes the channel's status.
 */
export class ChannelRunner {
  private state: ChannelLiveStatus = { state: "starting", lastError: null, lastErrorAt: null };
  private readonly stopper = new AbortController();
  private loop: Promise<void> | null = null;
  private readonly courier: Courier;
  private readonly inbound: InboundHandler;
  private readonly relays = new Map<string, { relay: TurnRelay; chatId: string; detach: () => void }>();
  private readonly board: QuestionBoard;
  private readonly throttle: ChatThrottle;
  /** Each conversation's open agent question, with the chat it was asked in. */
  private readonly questions = new Map<string, ChatQuestion & { readonly chatId: string; readonly threadId: string | null }>();
  /** Question id → conversation for the questions this channel showed, newest last (a tap may come after one closed). */
  private readonly asked = new Map<string, string>();
  private connection: BotConnection | null = null;

  constructor(
    private readonly channelId: string,
    private readonly platform: ChatPlatform,
    private readonly deps: RunnerDeps,
  ) {
    this.throttle = new ChatThrottle(platform.editLimitPerThread ?? false);
    this.courier = new Courier({
      channelId,
      store: deps.channels,
      logger: deps.logger,
      clock: deps.clock,
      backoffMs: deps.timings.backoffMs,
      onFatal: (failure) => this.fail(this.fixHint(failure.message), true),
      onTrouble: (message) => this.trouble(message),
      onHealthy: () => this.healthy(),
      ...(deps.sharedFilePath ? { filePath: deps.sharedFilePath } : {}),
    });
    this.board = new QuestionBoard({ courier: this.courier, clock: deps.clock, throttle: this.throttle, editIntervalMs: deps.timings.editIntervalMs, surface: platform.kind });
    // One way to fetch the phone's files, for voice notes and for photos and documents alike.
    const download = (fileId: string, signal?: AbortSignal) => {
      if (!this.connection) throw new PlatformFailure("unreachable", "The channel is not connected.");
      return this.connection.downloadFile(fileId, signal);
    };
    this.inbound = new InboundHandler(channelId, this.courier, {
      ...deps,
      surface: platform.kind,
      platformName: platform.displayName,
      ...(platform.threadWords ? { threadWords: platform.threadWords } : {}),
      elapsedMs: (conversationId) => this.relays.get(conversationId)?.relay.elapsedMs() ?? null,
      relayIfRunning: (conversationId, chatId, threadId) => {
        if (deps.turnLifecycle.isRunning(conversationId)) this.observe(conversationId, chatId, threadId);
      },
      openQuestions: (chatId, threadId) => [...this.questions.values()].filter((q) => q.chatId === chatId && q.threadId === threadId),
      connection: () => this.connection,
      ownerChanged: (from, to) => this.ownerChanged(from, to),
      questionConversation: (questionId) => this.asked.get(questionId) ?? null,
      board: this.board,
      runningTurn: (turnId) => {
        for (const [conversationId, { relay }] of this.relays) if (relay.turnId === turnId && !relay.finished) return conversationId;
        return null;
      },
      fetchFile: async (fileId, signal) => download(fileId, signal),
      stopSignal: this.stopper.signal,
      files: {
        attachments: deps.attachments,
        downloadLimitBytes: platform.fileDownloadLimitBytes,
        platformName: platform.displayName,
        download,
        alarms: deps.alarms,
        stallMs: deps.timings.fileStallMs,
        stopping: this.stopper.signal,
      },
      albumQuietMs: deps.timings.albumQuietMs,
      inScope: (fn) => this.asChannel(fn),
    });
  }

  get status(): ChannelLiveStatus {
    return this.state;
  }

  start(): void {
    this.loop ??= this.run().catch((err: unknown) => this.fail(`the channel stopped: ${String(err)}`, true));
  }

  async stop(): Promise<void> {
    this.stopper.abort();
    for (const { relay, detach } of this.relays.values()) {
      relay.abandon();
      detach();
    }
    this.relays.clear();
    await Promise.allSettled([this.loop, this.inbound.stop(), this.courier.stop()]);
  }

  /** A one-line notice to a chat, delivered like any message (through the outbox). */
  notify(chatId: string, threadId: string | null, text: string): void {
    this.courier.enqueue(chatId, threadId, [{ text }]);
  }

  /** Relay the running turn of a conversation bound to this channel (idempotent per turn). */
  observe(conversationId: string, chatId: string, threadId: string | null): void {
    if (this.stopper.signal.aborted) return;
    const existing = this.relays.get(conversationId);
    if (existing && !existing.relay.finished) return;
    const relay = new TurnRelay(chatId, threadId, {
      ownClientPrefix: phoneClientPrefix(this.channelId),
      courier: this.courier,
      board: this.board,
      platform: this.platform,
      clock: this.deps.clock,
      // The owner's pace, but never faster than the platform's edit rate limit allows.
      editIntervalMs: Math.max(this.deps.timings.editIntervalMs, this.platform.minEditIntervalMs ?? 0),
      throttle: this.throttle,
      queued: () => this.deps.pending.countPending(conversationId),
      questionChanged: (question) => {
        if (question) {
          this.questions.set(conversationId, { conversationId, chatId, threadId, ...question });
          this.asked.set(question.questionId, conversationId);
          // Only recent ones matter: a tap on a question from long ago finds it closed anyway.
          if (this.asked.size > ASKED_KEPT) this.asked.delete(this.asked.keys().next().value!);
        }
        else if (this.questions.get(conversationId)?.chatId === chatId) this.questions.delete(conversationId);
      },
    });
    let started = false;
    const entry = { relay, chatId, detach: () => {} };
    this.relays.set(conversationId, entry);
    const end = () => {
      if (this.relays.get(conversationId) === entry) this.relays.delete(conversationId);
      entry.detach();
    };
    entry.detach = this.deps.turnReads.subscribe(conversationId, {
      deliver: (frame) => {
        const event: ChatEvent = frame.event;
        if (event.type === "turn_start") started = true;
        if (!started) return;
        relay.deliver(event);
        if (relay.finished) queueMicrotask(end);
      },
      end: () => {
        relay.abandon();
        queueMicrotask(end);
      },
    });
  }

  private async run(): Promise<void> {
    const { channels } = this.deps;
    const signal = this.stopper.signal;
    const channel = channels.get(this.channelId);
    if (!channel) return;
    let connection: BotConnection;
    try {
      connection = this.platform.connect(this.deps.resolveCredentials(channel.credentialRefs));
    } catch (err) {
      return this.fail(err instanceof Error ? err.message : String(err), true);
    }
    this.courier.start(connection);
    this.connection = connection;
    this.placeMenu(channel.owner?.chatId ?? null, null);
    this.inbound.resumeAlbums();
    // The adapter owns its update loop (a long poll, a gateway…): it hands each update here and
    // waits for it, so the cursor persisted after an update is never ahead of what was handled.
    try {
      await connection.receive(channel.cursor, this.sink(signal), signal);
    } catch (err) {
      if (signal.aborted) return;
      const failure = err instanceof PlatformFailure ? err : new PlatformFailure("unreachable", String(err));
      this.fail(failure.kind === "unauthorized" ? this.fixHint(failure.message) : failure.message, true);
    }
  }

  /** What the adapter's loop hands its updates to. */
  private sink(signal: AbortSignal): UpdateSink {
    return {
      healthy: () => this.healthy(),
      trouble: (failure) => {
        if (!signal.aborted) this.fail(failure.message, false);
      },
      beginBatch: () => this.inbound.beginBatch(),
      endBatch: () => this.inbound.endBatch(),
      deliver: async (update, cursor) => {
        // After the stop nothing is handled and nothing recorded: the platform offers it again.
        if (signal.aborted) return;
        try {
          await this.asChannel(() => this.inbound.handle(update));
        } catch (err) {
          // Cut short by the stop (a file download or a voice note's transcription in flight): not
          // handled, so not recorded; the platform offers it again at the next start.
          if (signal.aborted) return;
          // A poison update must not wedge the bot: it is logged (no content) and skipped.
          this.deps.logger.warn("channel update failed", { channel: this.channelId, update_id: update.updateId, err: err instanceof Error ? err.message : String(err) });
        }
        // Handled the moment the stop came (no await was cut short): recorded, so it is not redone.
        this.deps.channels.setCursor(this.channelId, cursor);
      },
    };
  }

  /**
   * Re-pairing: nothing more reaches the previous owner's chat. Its running relays are dropped
   * (a rebound turn gets a fresh one into the new chat) and its questions forgotten.
   */
  private ownerChanged(from: string | null, to: string): void {
    if (from !== null && from !== to) {
      // Every chat but the new one: the old private chat, and the groups whose conversations move too.
      for (const [conversationId, entry] of this.relays) {
        if (entry.chatId === to) continue;
        entry.relay.abandon();
        entry.detach();
        this.relays.delete(conversationId);
      }
      for (const [conversationId, q] of this.questions) if (q.chatId !== to) this.questions.delete(conversationId);
      this.board.forgetChatsExcept(to);
      this.courier.abandonDeliveriesExcept(to);
    }
    this.placeMenu(to, from);
  }

  /**
   * The command menu for the owner's chat only (BotCommandScopeChat): the default scope would
   * show it to every stranger who opens the bot, and a previous owner's chat loses it. Best
   * effort: the menu is a convenience, and a failure here must not stop the channel.
   */
  private placeMenu(to: string | null, from: string | null): void {
    const connection = this.connection;
    if (!connection) return;
    const place = async () => {
      await connection.clearCommands(null);
      if (from !== null && from !== to) await connection.clearCommands(from);
      if (to !== null) await connection.setCommands(to, CHAT_COMMANDS);
    };
    place().catch((err: unknown) => this.deps.logger.debug("command menu not updated", { channel: this.channelId, err: String(err) }));
  }

  /** A revoked token: what the owner does about it, with the ref it lives under. */
  private asChannel<T>(fn: () => T): T {
    return this.deps.principals ? this.deps.principals.run({ kind: "channel", channel_id: this.channelId, platform: this.platform.kind }, fn) : fn();
  }

  private fixHint(message: string): string {
    const refs = Object.values(this.deps.channels.get(this.channelId)?.credentialRefs ?? {});
    const ref = refs.length ? refs.join('" or "') : "its ref";
    return `${message.replace(/\.$/, "")}. Store the current token under "${ref}", then enable the channel again.`;
  }

  private healthy(): void {
    if (this.state.state !== "polling" && this.state.state !== "stopped") this.state = { ...this.state, state: "polling" };
  }

  private trouble(message: string): void {
    this.state = { ...this.state, lastError: message, lastErrorAt: this.deps.clock.now() };
  }

  private fail(message: string, fatal: boolean): void {
    this.state = { state: fatal ? "stopped" : "retrying", lastError: message, lastErrorAt: this.deps.clock.now() };
    this.deps.logger.warn(fatal ? "channel stopped" : "channel poll failed; retrying", { channel: this.channelId, reason: message });
    if (fatal) this.stopper.abort();
  }
}


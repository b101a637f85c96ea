import { setTimeout as delay } from "node:timers/promises";
import type { Clock, Logger } from "../ports.js";
import { PlatformFailure, type BotConnection, type ChannelStore, type OutgoingMessage } from "./ports.js";

export interface CourierDeps {
  readonly channelId: string;
  readonly store: ChannelStore;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Waits after a failed delivery, by attempt (the last repeats); a platform's retry_after wins. */
  readonly backoffMs: readonly number[];
  /** A fault the owner has to fix (revoked token): the runner stops the channel. */
  onFatal(failure: PlatformFailure): void;
  /** A delivery failed and will be retried, or a message was refused for good: the status says why. */
  onTrouble(message: string): void;
  onHealthy(): void;
  /** Where a shared file's bytes are now; null when it is gone (deleted with its conversation). */
  readonly filePath?: (attachmentId: string) => string | null;
}

type Ephemeral = (connection: BotConnection) => Promise<void>;

/** How many tracked messages' platform ids are remembered (the newest; a question long closed needs none). */
const TRACKED_KEPT = 200;

/**
 * One channel's outbound side. Durable messages go through the outbox table and leave it only
 * once delivered, oldest first, one at a time, so the chat reads in order and nothing is
 * dropped by a restart or an outage. Ephemeral work (the live progress message) runs only
 * when the outbox is empty: while Telegram struggles, progress is skipped, answers are not.
 */
export class Courier {
  private connection: BotConnection | null = null;
  private readonly ephemeral: Ephemeral[] = [];
  private wake: (() => void) | null = null;
  private readonly stopper = new AbortController();
  private loop: Promise<void> | null = null;
  /** The delivery under way, so re-pairing can call off one bound for the old chat. */
  private inFlight: { readonly chatId: string; readonly call: AbortController } | null = null;
  /** Outbox row id → the name a caller will ask its sent message by (`enqueue`'s `track`). */
  private readonly tracking = new Map<number, string>();
  /** That name → the platform's id of the delivered message (for an edit later). */
  private readonly sent = new Map<string, string>();

  constructor(private readonly deps: CourierDeps) {}

  start(connection: BotConnection): void {
    this.connection = connection;
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopper.abort();
    this.wake?.();
    await this.loop;
  }

  /**
   * Queue messages for a chat (one transaction); they go out after everything queued before.
   * `track` names the first one, so its platform id can be asked for once delivered
   * (`sentId`): a question's message is edited when it closes. Kept in memory only: after a
   * restart the question it shows is gone anyway.
   */
  enqueue(chatId: string, threadId: string | null, messages: readonly OutgoingMessage[], track?: string): void {
    if (!messages.length) return;
    const ids = this.deps.store.enqueue(this.deps.channelId, chatId, threadId, messages, this.deps.clock.now());
    if (track !== undefined && ids[0] !== undefined) this.tracking.set(ids[0], track);
    this.kick();
  }

  /** The platform id of the delivered message `enqueue` tracked under this name; null until delivered (or if refused). */
  sentId(track: string): string | null {
    return this.sent.get(track) ?? null;
  }

  /**
   * Re-pairing: a delivery under way to any chat but `chatId` is called off, retries and all
   * (its row is already gone), so not even that one message reaches the old chat.
   */
  abandonDeliveriesExcept(chatId: string): void {
    if (this.inFlight && this.inFlight.chatId !== chatId) this.inFlight.call.abort();
  }

  /**
   * Best-effort work; false when refused at once because deliveries are backed up (unless
   * `evenIfBacklogged`: tidying up, like deleting a progress message, must still happen).
   */
  tryEphemeral(work: Ephemeral, evenIfBacklogged = false): boolean {
    if (!this.connection) return false;
    if (!evenIfBacklogged && this.deps.store.countOutbox(this.deps.channelId) > 0) return false;
    this.ephemeral.push(work);
    this.kick();
    return true;
  }

  private kick(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async run(): Promise<void> {
    const { store, channelId } = this.deps;
    const signal = this.stopper.signal;
    while (!signal.aborted) {
      const [row] = store.outbox(channelId, 1);
      if (row) {
        await this.deliver(row.id, row.chatId, row.threadId, row.message, row.attempts, signal);
        continue;
      }
      const work = this.ephemeral.shift();
      if (work) {
        await work(this.connection!).catch((err: unknown) => this.deps.logger.debug("channel progress update skipped", { channel: channelId, err: describe(err) }));
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** A shared file goes up from the store; false when its bytes are gone (nothing to send or retry). */
  private async sendFile(chatId: string, threadId: string | null, message: OutgoingMessage, signal: AbortSignal, key: string): Promise<boolean> {
    const file = message.file!;
    const path = this.deps.filePath?.(file.attachmentId) ?? null;
    if (!path) {
      this.deps.logger.warn("a shared file was gone before it could be sent; skipped", { channel: this.deps.channelId, attachment: file.attachmentId });
      return false;
    }
    await this.connection!.sendFile(chatId, threadId, { as: file.as, name: file.name, mediaType: file.mediaType, path }, message.text, signal, key);
    return true;
  }

  private remember(rowId: number, messageId: string): void {
    const name = this.tracking.get(rowId);
    if (name === undefined) return;
    this.sent.set(name, messageId);
    if (this.sent.size > TRACKED_KEPT) this.sent.delete(this.sent.keys().next().value!);
  }

  private done(rowId: number): void {
    this.tracking.delete(rowId);
    this.deps.store.delivered(rowId);
  }

  private async deliver(rowId: number, chatId: string, threadId: string | null, message: OutgoingMessage, attempts: number, signal: AbortSignal): Promise<void> {
    const { store, logger, channelId } = this.deps;
    const call = new AbortController();
    this.inFlight = { chatId, call };
    try {
      if (message.file) {
        if (!(await this.sendFile(chatId, threadId, message, call.signal, deliveryKey(rowId)))) return void this.done(rowId);
      } else this.remember(rowId, await this.connection!.send(chatId, threadId, message, call.signal, deliveryKey(rowId)));
      this.done(rowId);
      this.deps.onHealthy();
    } catch (err) {
      if (signal.aborted || call.signal.aborted) return;
      const failure = err instanceof PlatformFailure ? err : new PlatformFailure("unreachable", describe(err));
      if (failure.kind === "rejected") {
        // Refused for good (chat gone, bot blocked): retrying would wedge every later message.
        // It is logged and shown on the channel's status, never dropped silently.
        this.done(rowId);
        logger.warn("channel message refused by the platform; dropped", { channel: channelId, reason: failure.message });
        this.deps.onTrouble(`A message could not be delivered and was dropped: ${failure.message}`);
        return;
      }
      if (failure.kind === "unauthorized") {
        this.deps.onFatal(failure);
        this.stopper.abort();
        return;
      }
      store.failedAttempt(rowId);
      this.deps.onTrouble(`Delivery is retrying: ${failure.message}`);
      const { backoffMs } = this.deps;
      const wait = failure.retryAfterMs ?? backoffMs[Math.min(attempts, backoffMs.length - 1)] ?? 1000;
      await delay(wait, undefined, { signal }).catch(() => undefined);
    } finally {
      this.inFlight = null;
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** An outbox row's delivery key: its id is unique in the data dir (Discord takes nonces of up to 25 characters). */
function deliveryKey(rowId: number): string {
  return `o${rowId}`;
}

/**
 * Telegram's long-poll loop, owned by the adapter (issue 26, seam step 4). The cursor is the next
 * getUpdates offset as decimal text: every update below it was handled. The next poll waits until
 * the application handled the whole batch, so the offset Telegram is asked for (which confirms
 * everything below it) never passes an update the application has not handled and recorded.
 */
import { setTimeout as delay } from "node:timers/promises";
import { PlatformFailure, type InboundUpdate, type UpdateSink } from "../../application/channels/ports.js";

/** One getUpdates call: updates from `offset`, the poll held up to `timeoutSeconds`. */
export type GetUpdates = (offset: number, timeoutSeconds: number, signal: AbortSignal) => Promise<InboundUpdate[]>;

export interface PollTimings {
  /** How long a poll is held (Telegram allows up to 50 s). */
  readonly pollTimeoutSeconds: number;
  /** Waits after failed polls, by attempt; the last repeats. */
  readonly backoffMs: readonly number[];
}

/** The offset a stored cursor stands for (none yet, or unreadable: 0, Telegram's "from the oldest kept"). */
export function offsetOf(cursor: string | null): number {
  const offset = cursor === null ? 0 : Number.parseInt(cursor, 10);
  return Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
}

export async function pollTelegram(getUpdates: GetUpdates, cursor: string | null, sink: UpdateSink, timings: PollTimings, signal: AbortSignal): Promise<void> {
  let offset = offsetOf(cursor);
  let failures = 0;
  // Until a poll has been answered it is not held for the long-poll timeout: the page would show
  // "Starting…" for up to 50 s on a good token (and "Retrying…" as long after an outage).
  let answered = false;
  while (!signal.aborted) {
    let updates: InboundUpdate[];
    try {
      updates = await getUpdates(offset, answered ? timings.pollTimeoutSeconds : 0, signal);
    } catch (err) {
      if (signal.aborted) return;
      const failure = err instanceof PlatformFailure ? err : new PlatformFailure("unreachable", String(err));
      if (failure.kind === "unauthorized") throw failure;
      answered = false;
      sink.trouble(failure);
      const wait = failure.retryAfterMs ?? timings.backoffMs[Math.min(failures, timings.backoffMs.length - 1)] ?? 1000;
      failures += 1;
      await delay(wait, undefined, { signal }).catch(() => undefined);
      continue;
    }
    failures = 0;
    answered = true;
    sink.healthy();
    sink.beginBatch();
    try {
      for (const update of updates) {
        if (signal.aborted) return;
        const id = Number(update.updateId);
        // Below the offset = already handled (a reconnect race, or a redelivery).
        if (id < offset) continue;
        await sink.deliver(update, String(id + 1));
        // Only as far as the application got: an update the stop cut short is offered again next start.
        if (!signal.aborted) offset = id + 1;
      }
    } finally {
      // Held acknowledgements go out even when a stop ends the batch early (they were earned).
      sink.endBatch();
    }
  }
}

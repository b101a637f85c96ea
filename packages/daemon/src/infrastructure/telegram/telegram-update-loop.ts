import { setTimeout as delay } from "node:timers/promises";
import { PlatformFailure, type InboundSink, type InboundUpdate, type ReceiveTimings } from "../../application/channels/ports.js";

/** One getUpdates call: updates from `offset`, the poll held up to `timeoutSeconds`. */
export type GetUpdates = (offset: number, timeoutSeconds: number, signal: AbortSignal) => Promise<InboundUpdate[]>;

/**
 * Telegram's long-poll loop, owned by the adapter: the cursor is the next getUpdates offset as a
 * decimal string ("" = 0). Each batch is handed to the application and the next poll waits for
 * it, so the offset Telegram is asked for never passes an update the application has not handled
 * and recorded (exactly once across a kill: below the persisted cursor = already handled).
 */
export async function telegramUpdateLoop(getUpdates: GetUpdates, cursor: string, sink: InboundSink, timings: ReceiveTimings, signal: AbortSignal): Promise<void> {
  let offset = Number.parseInt(cursor, 10) || 0;
  let failures = 0;
  // Until a poll has been answered it is not held for the long-poll timeout: the page would show
  // "Starting…" for up to 50 s on a good token.
  let answered = false;
  while (!signal.aborted) {
    let updates: InboundUpdate[];
    try {
      updates = await getUpdates(offset, answered ? timings.pollTimeoutSeconds : 0, signal);
    } catch (err) {
      if (signal.aborted) return;
      const failure = err instanceof PlatformFailure ? err : new PlatformFailure("unreachable", String(err));
      answered = false;
      if (failure.kind === "unauthorized") return sink.failed(failure, true);
      sink.failed(failure, false);
      const wait = failure.retryAfterMs ?? timings.backoffMs[Math.min(failures, timings.backoffMs.length - 1)] ?? 1000;
      failures += 1;
      await delay(wait, undefined, { signal }).catch(() => undefined);
      continue;
    }
    failures = 0;
    answered = true;
    sink.healthy();
    // Below the persisted offset = already handled (a reconnect race, or a redelivery).
    const fresh = updates.filter((u) => u.updateId >= offset);
    await sink.deliver(fresh.map((update) => ({ update, cursor: String(update.updateId + 1) })));
    // Only as far as the application got: a batch cut short by a stop is offered again next start.
    const last = fresh.at(-1);
    if (last && !signal.aborted) offset = Math.max(offset, last.updateId + 1);
  }
}

/**
 * Retries of transient failures (5xx, network errors) with a bounded, doubling backoff.
 * @grammyjs/auto-retry handles 429 `retry_after`; its own 5xx/network retry is left off
 * because it retries network errors without bound and always starts at 3 s: a daemon must
 * report "unreachable" after a few attempts (the outbox and the poller retry later), and
 * tests must not wait seconds.
 */
import { HttpError, type Transformer } from "grammy";

export interface TransientRetryOptions {
  readonly maxRetryAttempts: number;
  /** First pause; doubles each attempt, capped at `maxDelaySeconds`. */
  readonly backoffSeconds: number;
  readonly maxDelaySeconds: number;
}

/** grammY hands transformers the caller's signal, typed as a polyfill's: only these members are used. */
interface Signal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

function abortReason(signal: Signal): unknown {
  return (signal as { reason?: unknown }).reason ?? new Error("aborted");
}

function pause(seconds: number, signal: Signal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, seconds * 1000);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function transientRetry(options: TransientRetryOptions): Transformer {
  return async (prev, method, payload, signal) => {
    let delay = options.backoffSeconds;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxRetryAttempts;
      try {
        const res = await prev(method, payload, signal);
        if (res.ok || res.error_code < 500 || last) return res;
      } catch (err) {
        if (!(err instanceof HttpError) || signal?.aborted || last) throw err;
      }
      await pause(delay, signal);
      delay = Math.min(delay * 2, options.maxDelaySeconds);
    }
  };
}

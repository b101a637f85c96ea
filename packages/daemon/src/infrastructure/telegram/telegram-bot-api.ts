/**
 * Everything that loads grammY: a bot's Api with its retries, wrapped as a BotConnection.
 * TelegramPlatform imports this module on first use (`import()`), so a daemon without a
 * Telegram channel never loads grammY (≈ 80–240 ms of start-up; docs/decisions.md, "Speed and
 * footprint (issue 16)").
 */
import { autoRetry } from "@grammyjs/auto-retry";
import { Api } from "grammy";
import { TelegramConnection, type TelegramBotConnection } from "./telegram-connection.js";
import type { PollTimings } from "./telegram-update-loop.js";
import { transientRetry } from "./telegram-retry.js";

export interface BotApiOptions {
  readonly apiRoot: string;
  readonly timeoutSeconds: number;
  /** Bounded retries (429s and 5xx/network errors); none for a one-off check. */
  readonly retry?: { readonly maxRetryAttempts: number; readonly maxDelaySeconds: number; readonly backoffSeconds: number };
  /** The update loop's pacing; Telegram's defaults when absent. */
  readonly poll?: PollTimings;
}

export function botConnection(token: string, options: BotApiOptions): TelegramBotConnection {
  const api = new Api(token, { apiRoot: options.apiRoot, timeoutSeconds: options.timeoutSeconds });
  if (options.retry) {
    const { maxRetryAttempts, maxDelaySeconds, backoffSeconds } = options.retry;
    api.config.use(
      autoRetry({ maxRetryAttempts, maxDelaySeconds, rethrowHttpErrors: true, rethrowInternalServerErrors: true }),
      transientRetry({ maxRetryAttempts, maxDelaySeconds, backoffSeconds }),
    );
  }
  return new TelegramConnection(api, token, options.timeoutSeconds, options.apiRoot, options.poll);
}

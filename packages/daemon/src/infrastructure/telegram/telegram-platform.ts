/** Telegram as a ChatPlatform: grammY's Api per bot, with bounded retries, and the HTML renderer. */
import { autoRetry } from "@grammyjs/auto-retry";
import { Api } from "grammy";
import type { BotConnection, BotIdentity, ChatPlatform, OutgoingMessage } from "../../application/channels/ports.js";
import { TelegramConnection } from "./telegram-connection.js";
import { renderTelegram } from "./telegram-format.js";
import { transientRetry } from "./telegram-retry.js";

export interface TelegramRetryOptions {
  /** Retries after the first attempt, for 429s and for 5xx/network errors alike. */
  readonly maxRetryAttempts: number;
  /** A 429 asking for a longer wait fails at once as rate_limited (the caller reschedules); also caps the backoff. */
  readonly maxDelaySeconds: number;
  /** First pause after a 5xx or network error; doubles per attempt. */
  readonly backoffSeconds?: number;
}

export interface TelegramPlatformOptions {
  /** The Bot API root (a fake one in tests); a trailing "/" is dropped. */
  readonly apiRoot?: string;
  readonly retry?: TelegramRetryOptions;
  /** grammY's per-request timeout; long polls are kept 5 s shorter. */
  readonly requestTimeoutSeconds?: number;
}

/** How long adding a channel waits for Telegram to confirm the token. */
const CHECK_TIMEOUT_SECONDS = 10;

const DEFAULT_RETRY: Required<TelegramRetryOptions> = { maxRetryAttempts: 3, maxDelaySeconds: 30, backoffSeconds: 3 };

export class TelegramPlatform implements ChatPlatform {
  readonly kind = "telegram" as const;
  private readonly apiRoot: string;
  private readonly retry: Required<TelegramRetryOptions>;
  private readonly requestTimeoutSeconds: number;

  constructor(options: TelegramPlatformOptions = {}) {
    this.apiRoot = (options.apiRoot ?? "https://api.telegram.org").replace(/\/+$/, "");
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.requestTimeoutSeconds = options.requestTimeoutSeconds ?? 90;
  }

  connect(token: string): BotConnection {
    const api = new Api(token, { apiRoot: this.apiRoot, timeoutSeconds: this.requestTimeoutSeconds });
    const { maxRetryAttempts, maxDelaySeconds, backoffSeconds } = this.retry;
    api.config.use(
      autoRetry({ maxRetryAttempts, maxDelaySeconds, rethrowHttpErrors: true, rethrowInternalServerErrors: true }),
      transientRetry({ maxRetryAttempts, maxDelaySeconds, backoffSeconds }),
    );
    return new TelegramConnection(api, token, this.requestTimeoutSeconds);
  }

  async check(token: string): Promise<BotIdentity> {
    const api = new Api(token, { apiRoot: this.apiRoot, timeoutSeconds: CHECK_TIMEOUT_SECONDS });
    return new TelegramConnection(api, token, CHECK_TIMEOUT_SECONDS).getMe();
  }

  render(markdown: string): OutgoingMessage[] {
    return renderTelegram(markdown);
  }

  deepLink(botUsername: string, startParameter: string): string {
    return `https://t.me/${encodeURIComponent(botUsername)}?start=${encodeURIComponent(startParameter)}`;
  }
}

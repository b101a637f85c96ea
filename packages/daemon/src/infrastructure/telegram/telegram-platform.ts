/** Telegram as a ChatPlatform: grammY's Api per bot, with bounded retries, and the HTML renderer. */
import type { BotIdentity, ChatPlatform, CredentialValues, OutgoingMessage, PlatformCredential, UploadLimits } from "../../application/channels/ports.js";
import { deferredConnection } from "../system/deferred-connection.js";
import type { BotApiOptions } from "./telegram-bot-api.js";
import type { TelegramBotConnection } from "./telegram-connection.js";
import type { PollTimings } from "./telegram-update-loop.js";
import { renderTelegram } from "./telegram-format.js";

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
  /** The update loop's long-poll timeout and its backoff after failed polls. */
  readonly poll?: Partial<PollTimings>;
}

/** How long adding a channel waits for Telegram to confirm the token. */
const CHECK_TIMEOUT_SECONDS = 10;

const DEFAULT_RETRY: Required<TelegramRetryOptions> = { maxRetryAttempts: 3, maxDelaySeconds: 30, backoffSeconds: 3 };

/** grammY is loaded on the first connection, not at start (a daemon without a channel never needs it). */
async function open(token: string, options: BotApiOptions): Promise<TelegramBotConnection> {
  const { botConnection } = await import("./telegram-bot-api.js");
  return botConnection(token, options);
}

/** A connection usable at once while grammY loads; Telegram's adapter tests also poll it directly. */
function deferred(connection: Promise<TelegramBotConnection>): TelegramBotConnection {
  return {
    // Telegram serves forum groups: the optional group calls are forwarded too.
    ...deferredConnection(connection, { groups: true }),
    getUpdates: async (offset, timeoutSeconds, signal) => (await connection).getUpdates(offset, timeoutSeconds, signal),
  };
}

/** The Bot API's upload limits (sendPhoto 10 MB; sendDocument 50 MB); GIFs go as documents (a photo would lose the animation). */
export const TELEGRAM_UPLOAD_LIMITS: UploadLimits = {
  photoMaxBytes: 10 * 1024 * 1024,
  documentMaxBytes: 50 * 1024 * 1024,
  photoTypes: ["image/jpeg", "image/png", "image/webp"],
};

/** A Telegram bot needs one secret: the token @BotFather gives. */
export const TELEGRAM_CREDENTIALS: readonly PlatformCredential[] = [
  { name: "bot_token", label: "Bot token", secret: true, hint: "From @BotFather: /newbot, then copy the token it sends." },
];

export class TelegramPlatform implements ChatPlatform {
  readonly kind = "telegram";
  readonly displayName = "Telegram";
  readonly credentials = TELEGRAM_CREDENTIALS;
  readonly uploadLimits = TELEGRAM_UPLOAD_LIMITS;
  /** getFile refuses bigger files ("file is too big"); the local Bot API server would lift it, the cloud one does not. */
  readonly fileDownloadLimitBytes = 20 * 1024 * 1024;
  private readonly apiRoot: string;
  private readonly retry: Required<TelegramRetryOptions>;
  private readonly requestTimeoutSeconds: number;
  private readonly poll: PollTimings;

  constructor(options: TelegramPlatformOptions = {}) {
    this.apiRoot = (options.apiRoot ?? "https://api.telegram.org").replace(/\/+$/, "");
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.requestTimeoutSeconds = options.requestTimeoutSeconds ?? 90;
    this.poll = { pollTimeoutSeconds: 50, backoffMs: [1000, 5000, 30_000], ...options.poll };
  }

  connect(credentials: CredentialValues | string): TelegramBotConnection {
    return deferred(open(botToken(credentials), { apiRoot: this.apiRoot, timeoutSeconds: this.requestTimeoutSeconds, retry: this.retry, poll: this.poll }));
  }

  async check(credentials: CredentialValues | string): Promise<BotIdentity> {
    return (await open(botToken(credentials), { apiRoot: this.apiRoot, timeoutSeconds: CHECK_TIMEOUT_SECONDS })).getMe();
  }

  render(markdown: string): OutgoingMessage[] {
    return renderTelegram(markdown);
  }

  deepLink(botUsername: string, startParameter: string): string {
    return `https://t.me/${encodeURIComponent(botUsername)}?start=${encodeURIComponent(startParameter)}`;
  }
}

/**
 * The one credential Telegram declares (the service checked it is there). A bare token is taken as
 * that credential too: Telegram's own tests connect a bot by its token alone.
 */
function botToken(credentials: CredentialValues | string): string {
  return typeof credentials === "string" ? credentials : (credentials.bot_token ?? "");
}

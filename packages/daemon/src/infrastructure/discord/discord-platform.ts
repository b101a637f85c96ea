/**
 * Discord as a ChatPlatform: the bot's DMs (and server channels it is in) through the gateway,
 * markdown sent as Discord renders it natively, in parts of at most 2,000 characters that never
 * break a code block. The @discordjs libraries load on the first connection (`import()`).
 */
import { deferredConnection } from "../system/deferred-connection.js";
import type { BotConnection, BotIdentity, ChatPlatform, CredentialValues, OutgoingMessage, PlatformCredential, ThreadWords, UploadLimits } from "../../application/channels/ports.js";
import { DISCORD_LIMITS } from "./discord-events.js";
import { splitDiscordText } from "./discord-split.js";

const DEFAULT_DISCORD_API_ROOT = "https://discord.com/api";

export interface DiscordPlatformOptions {
  /** The REST root (@discordjs/rest's `api`; the gateway URL comes from GET /gateway/bot on it). */
  readonly apiRoot?: string;
  /** Spacing between IDENTIFYs: Discord's 5 s by default; tests against the fake use 0. */
  readonly identifySpacingMs?: number;
  /** Waits after a failed gateway connect, by attempt. */
  readonly backoffMs?: readonly number[];
}

/** How long adding a channel waits for Discord to confirm the token. */
const CHECK_TIMEOUT_MS = 10_000;

/** A Discord bot needs one secret: its token from the Developer Portal. */
export const DISCORD_CREDENTIALS: readonly PlatformCredential[] = [
  {
    name: "bot_token",
    label: "Bot token",
    secret: true,
    hint: "Discord Developer Portal → your application → Bot: Reset Token; turn on the Message Content intent.",
  },
];

/** A server without boosts takes 10 MB per upload, photo or not; GIFs show inline too. */
export const DISCORD_UPLOAD_LIMITS: UploadLimits = {
  photoMaxBytes: DISCORD_LIMITS.uploadBytes,
  documentMaxBytes: DISCORD_LIMITS.uploadBytes,
  photoTypes: ["image/jpeg", "image/png", "image/webp", "image/gif"],
};

/** A server's text channel holds threads; the owner grants the bot the right to open them there. */
export const DISCORD_THREAD_WORDS: ThreadWords = {
  thread: "thread",
  group: "server",
  place: "channel",
  grant: "Give me Create Public Threads, Send Messages in Threads and Manage Threads in this channel (server settings → Roles, or the channel's Permissions)",
  turnOn: "Threads cannot be opened in this channel: write in a text channel of your server instead.",
};

export class DiscordPlatform implements ChatPlatform {
  readonly kind = "discord";
  readonly displayName = "Discord";
  readonly credentials = DISCORD_CREDENTIALS;
  readonly uploadLimits = DISCORD_UPLOAD_LIMITS;
  readonly threadWords = DISCORD_THREAD_WORDS;
  /** Message edits share a per-channel bucket of 5 per 5 s: one a second keeps the progress clear of 429s. */
  readonly minEditIntervalMs = 1000;
  /** Rate limits are per channel, and a thread is a channel of its own. */
  readonly editLimitPerThread = true;
  /** Attachments come from Discord's CDN with no bot-side download limit. */
  readonly fileDownloadLimitBytes = null;
  private readonly apiRoot: string;

  constructor(private readonly options: DiscordPlatformOptions = {}) {
    this.apiRoot = (options.apiRoot ?? DEFAULT_DISCORD_API_ROOT).replace(/\/+$/, "");
  }

  connect(credentials: CredentialValues): BotConnection {
    const token = credentials.bot_token ?? "";
    const bot = import("./discord-bot.js").then(
      ({ DiscordBot }) =>
        new DiscordBot({
          token,
          apiRoot: this.apiRoot,
          backoffMs: this.options.backoffMs ?? [1000, 5000, 30_000],
          ...(this.options.identifySpacingMs !== undefined ? { identifySpacingMs: this.options.identifySpacingMs } : {}),
        }),
    );
    // A server's channel serves threads as conversations: the group calls are offered.
    return deferredConnection(bot, { groups: true });
  }

  /** GET users/@me once: a short timeout and no retries (the owner is waiting on a form). */
  async check(credentials: CredentialValues): Promise<BotIdentity> {
    const { checkDiscordToken } = await import("./discord-check.js");
    return checkDiscordToken(credentials.bot_token ?? "", this.apiRoot, CHECK_TIMEOUT_MS);
  }

  /** Discord renders markdown itself: the parts are the agent's markdown, cut at 2,000. */
  render(markdown: string): OutgoingMessage[] {
    return splitDiscordText(markdown).map((text, i) => (i === 0 ? { text } : { text, silent: true }));
  }

  /** A bot cannot be opened by a link with a start parameter: the owner DMs it the code. */
  deepLink(): null {
    return null;
  }
}

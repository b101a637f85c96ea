/**
 * Every error the @discordjs trio raises → PlatformFailure, with a message written here: a
 * DiscordAPIError's own message quotes Discord's text and its `url` may hold an interaction
 * token, so nothing of the error's text is kept, only its status and Discord's numeric code.
 */
import { DiscordAPIError, HTTPError, RateLimitError } from "@discordjs/rest";
import { PlatformFailure } from "../../application/channels/ports.js";

/** Discord's JSON error code for a request the bot's role does not allow. */
const MISSING_PERMISSIONS = 50013;

export function toPlatformFailure(err: unknown, what = "the request"): PlatformFailure {
  if (err instanceof PlatformFailure) return err;
  if (err instanceof RateLimitError) return new PlatformFailure("rate_limited", `Discord rate-limited ${what}.`, err.retryAfter);
  if (err instanceof DiscordAPIError || err instanceof HTTPError) {
    const code = err instanceof DiscordAPIError && typeof err.code === "number" && err.code > 0 ? `, code ${err.code}` : "";
    const status = err.status;
    if (status === 401) return new PlatformFailure("unauthorized", "Discord refused the bot token (401).");
    if (status === 429) return new PlatformFailure("rate_limited", `Discord rate-limited ${what} (429).`);
    if (status >= 500) return new PlatformFailure("unreachable", `Discord failed ${what} (${status}${code}).`);
    // Missing Permissions: the owner's to grant (the caller says which), so the cause is named.
    if (err instanceof DiscordAPIError && err.code === MISSING_PERMISSIONS) return new PlatformFailure("rejected", `Discord refused ${what}: the bot lacks a permission there (${status}${code}).`);
    return new PlatformFailure("rejected", `Discord refused ${what} (${status}${code}).`);
  }
  // Network errors and timeouts: only their errno-style code, never their text (it may name a URL).
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause?.code ?? (err as { code?: unknown } | null)?.code;
  const causeCode = typeof cause === "string" ? cause : undefined;
  return new PlatformFailure("unreachable", `Discord could not be reached for ${what}.`, undefined, causeCode);
}

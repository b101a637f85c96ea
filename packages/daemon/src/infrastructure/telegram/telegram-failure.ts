/**
 * grammY errors → PlatformFailure. grammY's request URL is `<root>/bot<token>/<method>` and
 * network errors quote it, so no message here is ever taken from an error: each is written
 * from the status, Telegram's description (scrubbed of the token anyway) or an errno code.
 */
import { GrammyError, HttpError } from "grammy";
import { PlatformFailure } from "../../application/channels/ports.js";

function scrub(text: string, token: string): string {
  return token ? text.split(token).join("…") : text;
}

function networkReason(err: HttpError, timeoutSeconds: number): string {
  const inner = err.error as { code?: unknown; type?: unknown; name?: unknown; message?: unknown } | undefined;
  const code = typeof inner?.code === "string" && /^[A-Z][A-Z0-9_]*$/.test(inner.code) ? inner.code : null;
  if (code) return code;
  if (typeof inner?.message === "string" && /timed out/.test(inner.message)) return `no answer within ${timeoutSeconds} s`;
  if (inner?.type === "invalid-json") return "the answer was not the Bot API's JSON";
  if (inner?.name === "AbortError") return "the request was cut off";
  return "the connection failed";
}

export function toPlatformFailure(err: unknown, token: string, timeoutSeconds: number): PlatformFailure {
  if (err instanceof PlatformFailure) return err;
  if (err instanceof GrammyError) {
    const code = err.error_code;
    const description = scrub(err.description ?? "", token);
    if (code === 401) {
      return new PlatformFailure(
        "unauthorized",
        "Telegram refused the bot token (401 Unauthorized): it was revoked or mistyped.",
      );
    }
    if (code === 409) {
      return new PlatformFailure(
        "conflict",
        `Another program is polling this bot, or a webhook is set (409 Conflict: ${description}). Stop the other program or remove the webhook.`,
      );
    }
    if (code === 429) {
      const after = err.parameters.retry_after;
      const retryAfterMs = typeof after === "number" ? after * 1000 : undefined;
      const wait = typeof after === "number" ? ` for ${after} s` : "";
      return new PlatformFailure("rate_limited", `Telegram asked to slow down${wait} (429 Too Many Requests).`, retryAfterMs);
    }
    if (code >= 500) return new PlatformFailure("unreachable", `Telegram is failing (${code}: ${description}).`);
    return new PlatformFailure("rejected", `Telegram refused the ${err.method} call (${code}: ${description}).`);
  }
  if (err instanceof HttpError) {
    return new PlatformFailure("unreachable", `Telegram could not be reached: ${networkReason(err, timeoutSeconds)}.`);
  }
  const name = err instanceof Error ? err.name : typeof err;
  return new PlatformFailure("unreachable", `The Telegram call failed unexpectedly (${name}).`);
}

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

/** What to check when the machine cannot talk to Telegram: said once, at the end of every such message. */
const CHECK = "Check this machine's network connection and any proxy or firewall it must go through, and that it can reach Telegram's Bot API.";

/** Errno codes that mean "the name did not resolve", "nobody answered" or "the line dropped". */
const NO_ADDRESS = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL"]);
const REFUSED = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN", "EACCES", "EPERM"]);
const DROPPED = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET"]);
const SLOW = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * A network failure as a sentence saying what happened and what to check (issue 22: a raw
 * ENOTFOUND at the end of the page's error told the owner nothing); the errno code, when
 * there is one, goes to `cause_code` (the error's details), not into the words.
 */
function networkFailure(err: HttpError, timeoutSeconds: number): PlatformFailure {
  const inner = err.error as { code?: unknown; type?: unknown; name?: unknown; message?: unknown; cause?: { code?: unknown } } | undefined;
  const raw = typeof inner?.code === "string" ? inner.code : typeof inner?.cause?.code === "string" ? inner.cause.code : null;
  const code = raw && /^[A-Z][A-Z0-9_]*$/.test(raw) ? raw : undefined;
  let what: string;
  if (code && NO_ADDRESS.has(code)) what = "Telegram could not be reached: this machine could not look up its address.";
  else if (code && REFUSED.has(code)) what = "Telegram could not be reached: the connection was refused.";
  else if (code && DROPPED.has(code)) what = "Telegram could not be reached: the connection dropped.";
  else if (code && SLOW.has(code)) what = "Telegram could not be reached: the connection timed out.";
  else if (typeof inner?.message === "string" && /timed out/.test(inner.message)) what = `Telegram could not be reached: no answer within ${timeoutSeconds} s.`;
  else if (inner?.type === "invalid-json") what = "Telegram's answer was not the Bot API's JSON: something between this machine and Telegram, such as a proxy, answered instead.";
  else if (inner?.name === "AbortError") what = "Telegram could not be reached: the request was cut off.";
  else what = "Telegram could not be reached: the connection failed.";
  return new PlatformFailure("unreachable", `${what} ${CHECK}`, undefined, code);
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
    return networkFailure(err, timeoutSeconds);
  }
  const name = err instanceof Error ? err.name : typeof err;
  return new PlatformFailure("unreachable", `The Telegram call failed unexpectedly (${name}).`);
}

import type { MiddlewareHandler } from "hono";
import type { SecretScrubber } from "../../application/secrets/secret-scrubber.js";
import type { Env } from "../deps.js";

/**
 * The last line of defence for REST: a JSON body that carries a known credential value (a
 * provider's error quoting the key, an upstream's stderr) is rewritten with it scrubbed.
 * Costs nothing until a secret is known; streams (SSE) are never buffered.
 */
export function scrubResponses(scrubber: SecretScrubber): MiddlewareHandler<Env> {
  return async (c, next) => {
    await next();
    // A bound route's JSON was scrubbed as text before it became a response (bind-route.ts);
    // reading `c.res.body` would build a stream of it and send it the slow way.
    if (scrubber.idle || c.get("scrubbed") || !c.res.body) return;
    if (!(c.res.headers.get("content-type") ?? "").startsWith("application/json")) return;
    const text = await c.res.clone().text();
    const scrubbed = scrubber.scrub(text);
    if (scrubbed === text) return;
    const { status, statusText } = c.res;
    const headers = new Headers(c.res.headers);
    headers.delete("content-length");
    // Hono's setter copies the old response's headers over the new one (content-length
    // included); clearing it first keeps the recomputed length. The status is read before:
    // once cleared, c.res is a fresh 200.
    c.res = undefined as unknown as Response;
    c.res = new Response(scrubbed, { status, statusText, headers });
  };
}

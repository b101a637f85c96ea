import type { MiddlewareHandler } from "hono";
import type { Env } from "../deps.js";

/**
 * The page's Content-Security-Policy. Everything comes from the daemon itself: the built
 * app has no inline script (the boot script is a file, `boot.js`), no eval, no WASM
 * (highlight.js is plain JavaScript) and no inline <style>. Images may also be `data:` (the
 * favicon) and `blob:`. A reply's remote image is rendered as a link, never fetched; this
 * policy is the backstop if anything slips through (docs/decisions.md, "Page security headers").
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "media-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Anything that is not the page (JSON, SSE, scripts, styles) may load nothing and run nothing if opened on its own. */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** On every response, whatever its type. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
};

/** The headers for a non-page response written straight to Node's socket (the live SSE streams) or built with them (a bound route's JSON, bind-route.ts). */
export const RESOURCE_HEADERS: Readonly<Record<string, string>> = { ...COMMON_HEADERS, "content-security-policy": RESOURCE_CSP };

/**
 * Strict headers on every response, errors included: the page's CSP on HTML, a deny-all
 * one on everything else, no MIME sniffing, no Referer to anywhere, no framing.
 */
export function secureHeaders(): MiddlewareHandler<Env> {
  return async (c, next) => {
    await next();
    // A bound route's JSON answer was built with RESOURCE_HEADERS (bind-route.ts): reading its
    // headers here would turn the adaptor's plain header object into a web Headers and back.
    if (c.get("secured")) return;
    let headers = c.res.headers;
    try {
      headers.set("x-content-type-options", "nosniff");
    } catch {
      // A response with immutable headers (e.g. one passed through from fetch): copy it once.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
      headers.set("x-content-type-options", "nosniff");
    }
    for (const [name, value] of Object.entries(COMMON_HEADERS)) headers.set(name, value);
    const html = (headers.get("content-type") ?? "").startsWith("text/html");
    headers.set("content-security-policy", html ? PAGE_CSP : RESOURCE_CSP);
  };
}

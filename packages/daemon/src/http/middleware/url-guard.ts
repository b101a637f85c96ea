import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors.js";

/**
 * A path or query with a broken percent-escape (`/%E0%A4%A`) is the client's mistake: answer
 * 400 INVALID_URL here, before a route or the static handler tries to decode it and throws
 * into the 500 path (which logs a stack).
 */
export function urlGuard(): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.url;
    const start = raw.indexOf("/", raw.indexOf("//") + 2);
    const pathAndQuery = start < 0 ? "" : raw.slice(start).split("#")[0]!;
    if (pathAndQuery.includes("%") && !decodes(pathAndQuery)) {
      throw new ApiError("INVALID_URL", "the URL has a malformed percent-escape (each % must start a valid UTF-8 escape like %C3%A9)");
    }
    await next();
  };
}

function decodes(text: string): boolean {
  try {
    // `+` and the separators decode as themselves; only the escapes can fail.
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

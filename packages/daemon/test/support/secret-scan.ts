import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { ApiClient, type ApiResponse } from "./http-client.js";

/**
 * The shapes a leaked secret takes: plain, hex, base64 (both alphabets), URL-encoded, and — for a
 * token made of a public part and a secret one (Telegram's `<bot id>:<secret>`, Discord's
 * `<base64 id>.<time>.<hmac>`) — the last part alone, which is all an attacker needs besides the
 * public bot id. Very short parts are left out: they would match noise.
 */
export function forms(secret: string): string[] {
  const b = Buffer.from(secret);
  const half = secret.includes(":") ? secret.slice(secret.indexOf(":") + 1) : secret.includes(".") ? secret.slice(secret.lastIndexOf(".") + 1) : null;
  const all = [secret, b.toString("hex"), b.toString("base64"), b.toString("base64url"), encodeURIComponent(secret), ...(half && half.length >= 12 ? [half] : [])];
  return [...new Set(all)];
}

const GZIP = Buffer.from([0x1f, 0x8b]);

/**
 * Every file under `dir` (the SQLite file, its WAL, logs, backups, attachments…) searched for each
 * needle; a gzipped file (a backup is a gzipped tar) is searched inflated too, since compression
 * would hide a plain secret inside it. A hit names the file (relative to `dir`) and the needle's start.
 */
export function scanDir(dir: string, needles: readonly string[], hits: string[] = [], root = dir): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const entry = statSync(path);
    if (entry.isDirectory()) {
      scanDir(path, needles, hits, root);
      continue;
    }
    if (!entry.isFile()) continue; // daemon.sock: a socket holds no bytes at rest
    const bytes = readFileSync(path);
    const views = [bytes];
    if (bytes.subarray(0, 2).equals(GZIP)) {
      try {
        views.push(gunzipSync(bytes));
      } catch {
        // A gzip header on something that does not inflate: the raw bytes were searched.
      }
    }
    for (const n of needles) if (views.some((v) => v.includes(Buffer.from(n)))) hits.push(`${relative(root, path)}: ${n.slice(0, 10)}…`);
  }
  return hits;
}

/** An API client that keeps every response (status, headers, body as received) for the scan. */
export class RecordingApi extends ApiClient {
  readonly seen: string[] = [];

  override async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const res = await super.request<T>(method, path, body, headers);
    this.seen.push(`${method} ${path} ${res.status} ${JSON.stringify([...res.headers])} ${typeof res.body === "string" ? res.body : JSON.stringify(res.body)}`);
    return res;
  }

  /** The needles found in any response so far. */
  leaks(needles: readonly string[]): string[] {
    const all = this.seen.join("\n");
    return needles.filter((n) => all.includes(n));
  }
}

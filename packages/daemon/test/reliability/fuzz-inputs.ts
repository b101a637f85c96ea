import type { RouteSpec } from "@coffer/protocol";

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  /** What was broken on purpose, for failure messages. */
  readonly note: string;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];
const QUERY_KEYS = ["archived", "q", "limit", "cursor", "before", "after", "foo", "limit[]", ""];
const ONE_MB = 1024 * 1024;
/** Code points (not UTF-16 units), so an emoji is never split into a lone surrogate. */
const ALPHABET = Array.from("abcXYZ019 _-./\\%?#&=\"'<>{}[]\u00e9\u4e2d\u{1f600}\u0000\n\t");

/**
 * Deterministic random request maker (a seeded PRNG), so a failure can be replayed by
 * running the suite again with the same seed.
 */
export class Fuzz {
  readonly conversations: string[] = [];
  private state: number;

  constructor(
    seed: number,
    private readonly token: string,
    private readonly port: number,
  ) {
    this.state = seed >>> 0;
  }

  request(routes: readonly RouteSpec[]): FuzzRequest {
    const route = this.pick(routes);
    const notes: string[] = [];
    const method = this.chance(0.8) ? route.method.toUpperCase() : this.pick(METHODS);
    if (method !== route.method.toUpperCase()) notes.push("method");
    const path = `/api/v1${route.path.replace("{id}", () => this.id(notes))}${this.query(notes)}`;
    const headers = this.headers(notes);
    const body = method === "GET" || method === "HEAD" ? (this.chance(0.05) ? this.body(route, notes) : undefined) : this.body(route, notes);
    if (body !== undefined && this.chance(0.9)) headers["content-type"] = this.chance(0.9) ? "application/json" : this.pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]);
    return { method, path, headers, body, note: notes.join(",") || "valid-ish" };
  }

  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let x = this.state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  }

  private chance(p: number): boolean {
    return this.next() < p;
  }

  private int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  private id(notes: string[]): string {
    if (this.conversations.length && this.chance(0.5)) return this.pick(this.conversations);
    notes.push("id");
    return encodeURIComponent(this.text(this.pick([1, 8, 32, 300, 5000])));
  }

  private query(notes: string[]): string {
    if (this.chance(0.5)) return "";
    notes.push("query");
    const parts: string[] = [];
    for (let i = this.int(1, 4); i > 0; i--) {
      const key = this.pick(QUERY_KEYS);
      const value = this.pick([
        "",
        "-1",
        "0",
        "1",
        "true",
        "yes",
        "1e309",
        "99999999999999999999",
        "NaN",
        this.text(this.int(1, 40)),
        "x".repeat(this.pick([201, 5000])),
        '"*" OR NEAR(a b)',
        "%FF%FE",
        "%00",
      ]);
      parts.push(`${encodeURIComponent(key)}=${value.startsWith("%") ? value : encodeURIComponent(value)}`);
    }
    return `?${parts.join("&")}`;
  }

  private headers(notes: string[]): Record<string, string> {
    const headers: Record<string, string> = {};
    const auth = this.next();
    if (auth < 0.05) notes.push("no-token");
    else if (auth < 0.1) {
      notes.push("bad-token");
      headers.authorization = this.pick(["Bearer wrong", "Bearer ", "Basic abc", `Bearer ${this.token}x`, `bearer ${this.token}`]);
    } else if (auth < 0.15) headers["x-coffer-token"] = this.token;
    else headers.authorization = `Bearer ${this.token}`;
    if (this.chance(0.03)) {
      notes.push("host");
      headers.host = this.pick(["evil.example", "evil.example:80", "127.0.0.1.nip.io", "[::2]", "", "localhost.evil"]);
    }
    if (this.chance(0.03)) {
      notes.push("origin");
      headers.origin = this.pick(["http://evil.example", "null", `https://127.0.0.1:${this.port}`, "not a url", `http://localhost:${this.port + 1}`]);
    }
    if (this.chance(0.02)) headers["sec-fetch-site"] = "cross-site";
    if (this.chance(0.02)) headers["last-event-id"] = this.pick(["", "x", "abc-1", "-1", "9".repeat(400)]);
    return headers;
  }

  private body(route: RouteSpec, notes: string[]): string | undefined {
    const r = this.next();
    if (r < 0.1) return undefined;
    if (r < 0.2) {
      notes.push("invalid-json");
      return this.pick(["{", "{]", "nul", "'a'", "{\"text\":}", "\u0000", "[1,2", '{"a":1}}']);
    }
    if (r < 0.21) {
      notes.push("oversize");
      return `{"text":"${"a".repeat(ONE_MB + this.int(1, 1024))}"}`;
    }
    if (r < 0.35) {
      notes.push("random-json");
      return JSON.stringify(this.value(3));
    }
    notes.push("mutated");
    return JSON.stringify(this.plausible(route));
  }

  /** A body near the route's real shape, with some fields of the wrong type or size. */
  private plausible(route: RouteSpec): Record<string, unknown> {
    const candidates: Record<string, unknown>[] = [
      { agent_key: this.pick(["scripted", "claude_code", "codex", "nope", ""]), agent_config: this.pick([{}, null, { cwd: "/nonexistent" }, { model: 5 }, { reject: "x" }, "str"]), title: this.pick([undefined, "", "t", "x".repeat(201)]) },
      { title: this.pick(["", " ", "ok", "x".repeat(201), 7, null]) },
      { text: this.pick(["", "hi", "x".repeat(32_769), 5, null, ["a"], this.text(200)]), client_id: this.pick([undefined, "", "c1", 3, "x".repeat(101)]) },
      { pending: this.pick([[], [{ text: "a" }], [{ id: 1, text: "" }], "x", Array.from({ length: 501 }, () => ({ text: "a" }))]) },
      { model: this.pick(["m", "", null, 3, "x".repeat(201)]) },
    ];
    const base = route.path.endsWith("/messages") ? candidates[2]! : route.path.endsWith("/pending") ? candidates[3]! : this.pick(candidates);
    if (this.chance(0.3)) base[this.text(5)] = this.value(2);
    return base;
  }

  private value(depth: number): unknown {
    const kind = this.int(0, depth > 0 ? 7 : 4);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1]);
      case 3:
        return this.text(this.pick([0, 3, 50, 40_000]));
      case 4:
        return this.text(this.int(1, 10));
      case 5:
        return Array.from({ length: this.int(0, 5) }, () => this.value(depth - 1));
      default: {
        const o: Record<string, unknown> = {};
        for (let i = this.int(0, 4); i > 0; i--) o[this.pick(["text", "title", "agent_key", "pending", "model", "__proto__", "constructor", this.text(4)])] = this.value(depth - 1);
        return o;
      }
    }
  }

  private text(length: number): string {
    let s = "";
    for (let i = 0; i < length; i++) s += ALPHABET[Math.floor(this.next() * ALPHABET.length)];
    return s;
  }
}

/**
 * Replaces every known credential value — and the encodings it travels in (base64,
 * base64url, hex, URL-encoding, JSON escaping) — by `[credential:<ref>]` in any text that
 * leaves the daemon: log lines, REST bodies and error envelopes, upstream MCP error text,
 * audit rows. It learns a value when the credential service stores or resolves it, so only
 * secrets the daemon has actually handled can be scrubbed (docs/decisions.md, "Secrets and audit").
 */
export class SecretScrubber {
  /** Values shorter than this are not scrubbed: they would blank out ordinary words. */
  static readonly MIN_LENGTH = 8;

  /** ref → the value learnt for it. */
  private readonly values = new Map<string, string>();
  /** form (the value or one of its encodings) → ref. */
  private forms = new Map<string, string>();
  private pattern: RegExp | null = null;

  /** Remembers a credential's value (on set and on every resolve; cheap when unchanged). */
  learn(ref: string, value: string): void {
    if (this.values.get(ref) === value) return;
    this.values.set(ref, value);
    this.rebuild();
  }

  forget(ref: string): void {
    if (this.values.delete(ref)) this.rebuild();
  }

  /** True when there is nothing to scrub, so callers can skip the work. */
  get idle(): boolean {
    return this.pattern === null;
  }

  scrub(text: string): string {
    if (!this.pattern || !text) return text;
    return text.replace(this.pattern, (form) => `[credential:${this.forms.get(form) ?? "?"}]`);
  }

  /** Scrubs every string inside a JSON-like value (object keys included); returns the input itself when nothing changed. */
  scrubValue<T>(value: T): T {
    if (!this.pattern) return value;
    return this.walk(value) as T;
  }

  private walk(value: unknown): unknown {
    if (typeof value === "string") return this.scrub(value);
    if (Array.isArray(value)) {
      const out = value.map((v) => this.walk(v));
      return out.some((v, i) => v !== value[i]) ? out : value;
    }
    if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const key = this.scrub(k);
        const next = this.walk(v);
        if (key !== k || next !== v) changed = true;
        out[key] = next;
      }
      return changed ? out : value;
    }
    if (value instanceof Error) return this.scrub(String(value.stack ?? value));
    return value;
  }

  private rebuild(): void {
    const forms = new Map<string, string>();
    for (const [ref, value] of this.values) {
      if (value.length < SecretScrubber.MIN_LENGTH) continue;
      for (const form of encodings(value)) if (!forms.has(form)) forms.set(form, ref);
    }
    this.forms = forms;
    // Longest first, so a value's base64 is not half-replaced by a shorter value inside it.
    const alternatives = [...forms.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.pattern = alternatives.length ? new RegExp(alternatives.join("|"), "g") : null;
  }
}

/** The value and the encodings it is commonly found in (headers, URLs, dumps, JSON). */
export function encodings(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const base64 = bytes.toString("base64");
  const hex = bytes.toString("hex");
  const forms = [
    value,
    base64,
    base64.replace(/=+$/, ""),
    bytes.toString("base64url"),
    hex,
    hex.toUpperCase(),
    encodeURIComponent(value),
    encodeURIComponent(value).replace(/%20/g, "+"),
    JSON.stringify(value).slice(1, -1),
  ];
  return [...new Set(forms)];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

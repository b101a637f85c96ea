import type { SecretLearner } from "../credentials/ports.js";

/**
 * Replaces every known credential value — and the encodings it travels in (base64,
 * base64url, hex, URL-encoding, JSON escaping) — by `[credential:<ref>]` in any text that
 * leaves the daemon: log lines, REST bodies and error envelopes, upstream MCP error text,
 * audit rows, and every agent event as it enters a turn (so what is stored, streamed and
 * relayed is scrubbed alike). It learns a value when the credential service stores or resolves it, so only
 * secrets the daemon has actually handled can be scrubbed (docs/decisions.md, "Secrets and audit").
 */
export class SecretScrubber implements SecretLearner {
  /** Values shorter than this are not scrubbed: they would blank out ordinary words. */
  static readonly MIN_LENGTH = 8;

  /** ref → the value learnt for it. */
  private readonly values = new Map<string, string>();
  /** form (the value or one of its encodings) → ref. */
  private forms = new Map<string, string>();
  private pattern: RegExp | null = null;
  /** The known forms by their first UTF-16 unit: where a stream's tail could be the start of one. */
  private byFirstUnit = new Map<number, string[]>();
  private longest = 0;

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
    return text.replace(this.pattern, (form) => this.replacement(form));
  }

  /**
   * One step of a stream (a reply arriving in deltas): `pending` is the text held from the
   * previous step plus the new delta. Returns the scrubbed text that is safe to emit now and
   * the raw tail to hold until the next step — the longest tail that is still the start of a
   * known form, so a secret split across deltas is scrubbed whole. Ordinary text ends in no
   * such start and is emitted at once; a held tail is never longer than the longest form
   * minus one (docs/decisions.md, "Hardening II: scrubbing at the entry, CLI care").
   */
  scrubStreaming(pending: string): { ready: string; held: string } {
    if (!this.pattern || !pending) return { ready: pending, held: "" };
    const matches: { start: number; end: number; form: string }[] = [];
    const re = this.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(pending); m; m = re.exec(pending)) matches.push({ start: m.index, end: m.index + m[0].length, form: m[0] });
    // The held tail starts where a form starts, so it never begins inside a surrogate pair.
    const cut = this.holdFrom(pending, matches);
    let ready = "";
    let at = 0;
    for (const m of matches) {
      if (m.end > cut) break;
      ready += pending.slice(at, m.start) + this.replacement(m.form);
      at = m.end;
    }
    ready += pending.slice(at, cut);
    return { ready, held: pending.slice(cut) };
  }

  /**
   * A stream's held tail when the stream moves on (another event, or its end) without
   * completing it: the start of a known form at least MIN_LENGTH long is a cut-off secret and
   * replaced by its ref; a shorter one is as likely an ordinary word and is released as it is.
   */
  scrubCutOff(tail: string): string {
    if (tail.length >= SecretScrubber.MIN_LENGTH) {
      const form = this.byFirstUnit.get(tail.charCodeAt(0))?.find((f) => f.length > tail.length && isPrefixAt(tail, 0, f));
      if (form) return this.replacement(form);
    }
    return this.scrub(tail);
  }

  /** Where the held tail starts: the earliest position (not inside a whole match) whose rest is a form's proper prefix. */
  private holdFrom(pending: string, matches: readonly { start: number; end: number }[]): number {
    const len = pending.length;
    let next = 0;
    for (let i = Math.max(0, len - this.longest + 1); i < len; i++) {
      const candidates = this.byFirstUnit.get(pending.charCodeAt(i));
      if (!candidates) continue;
      while (next < matches.length && matches[next]!.end <= i) next += 1;
      const m = matches[next];
      if (m && m.start < i) continue; // inside a whole match: it is replaced as a whole
      for (const form of candidates) if (form.length > len - i && isPrefixAt(pending, i, form)) return i;
    }
    return len;
  }

  private replacement(form: string): string {
    return `[credential:${this.forms.get(form) ?? "?"}]`;
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
    const byFirstUnit = new Map<number, string[]>();
    for (const form of forms.keys()) {
      const unit = form.charCodeAt(0);
      byFirstUnit.set(unit, [...(byFirstUnit.get(unit) ?? []), form]);
    }
    this.byFirstUnit = byFirstUnit;
    this.longest = Math.max(0, ...[...forms.keys()].map((f) => f.length));
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

/** Whether `text` from `at` to its end is where `form` begins. */
function isPrefixAt(text: string, at: number, form: string): boolean {
  for (let k = 0; at + k < text.length; k++) if (text.charCodeAt(at + k) !== form.charCodeAt(k)) return false;
  return true;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

import type { SecretValue } from "@coffer/protocol";

/**
 * Env vars and headers are edited as lines of text: `KEY=value` (env) or `Name: value`
 * (headers); `credential:<ref>` as the value takes it from the credential store.
 */
const CRED = /^credential:(.+)$/;

export function parsePairs(text: string, sep: "=" | ":"): { pairs: Record<string, SecretValue>; error: string | null } {
  const pairs: Record<string, SecretValue> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf(sep);
    if (at <= 0) return { pairs, error: `“${line}” is not ${sep === "=" ? "KEY=value" : "Name: value"}` };
    const key = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    const cred = CRED.exec(value);
    pairs[key] = cred ? { credential: cred[1]!.trim() } : value;
  }
  return { pairs, error: null };
}

export function formatPairs(pairs: Record<string, SecretValue>, sep: "=" | ":"): string {
  return Object.entries(pairs)
    .map(([k, v]) => `${k}${sep === "=" ? "=" : ": "}${typeof v === "string" ? v : `credential:${v.credential}`}`)
    .join("\n");
}

/** One argument per line, so arguments with spaces need no quoting. */
export function parseArgs(text: string): string[] {
  return text.split("\n").map((a) => a.trim()).filter(Boolean);
}

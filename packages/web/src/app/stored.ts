/**
 * The page's own storage, read as hostile input. localStorage belongs to the origin
 * 127.0.0.1:<port>, and whoever held that port while the daemon was down could write it
 * (docs/decisions.md, "Hardening II: the page's storage"). So every read is bounded here and
 * checked by its reader, and storage that throws (blocked, full, a hostile getter) is empty.
 */
export function readStored(key: string, maxChars: number): string | null {
  try {
    const value = localStorage.getItem(key);
    return typeof value === "string" && value.length <= maxChars ? value : null;
  } catch {
    return null;
  }
}

/** Write (or, with null, remove); full or blocked storage just does not keep it. */
export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // The value lives as long as the page; only a reload would lose it.
  }
}

/** One of `choices`, or null: a stored setting is a word the page wrote, never free text. */
export function readStoredChoice<T extends string>(key: string, choices: readonly T[]): T | null {
  const value = readStored(key, Math.max(...choices.map((c) => c.length)));
  return choices.find((c) => c === value) ?? null;
}

/** JSON the page wrote, at most `maxChars` long; anything else (unparsable, too big) is undefined. */
export function readStoredJson(key: string, maxChars: number): unknown {
  const raw = readStored(key, maxChars);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

import type { MessageOut, SearchMatch } from "@coffer/protocol";

/**
 * STOPGAP (issue 15, page side): why a conversation is in a search result, found by scanning
 * its newest messages for the query's words (prefix, case-insensitive — as the index matches).
 * Issue 16's search planner fills `match` from the index itself; this one function is what it
 * replaces (docs/decisions.md, "Chat basics and first run").
 */
export function findSearchMatch(q: string, title: string, newestMessages: readonly MessageOut[]): SearchMatch {
  const words = [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean))];
  const hits = (text: string) => words.filter((w) => new RegExp(`(^|[^\\p{L}\\p{N}_])${escape(w)}`, "iu").test(text)).length;
  let best: { id: string; text: string; n: number } | null = null;
  for (let i = newestMessages.length - 1; i >= 0; i--) {
    const m = newestMessages[i]!;
    const text = m.content.map((b) => (b.type === "text" ? b.text : "")).join(" ").replace(/\s+/g, " ").trim();
    const n = text ? hits(text) : 0;
    if (n > (best?.n ?? 0)) best = { id: m.id, text, n };
    if (n === words.length) break;
  }
  const source = best ? best.text : title;
  const snippet = cut(source, words);
  return { message_id: best?.id ?? null, snippet, highlights: ranges(snippet, words) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** About 140 characters around the first matched word. */
function cut(text: string, words: readonly string[]): string {
  const lower = text.toLowerCase();
  const first = Math.min(...words.map((w) => lower.indexOf(w)).filter((i) => i >= 0), text.length);
  const start = first > 40 ? text.lastIndexOf(" ", first - 30) + 1 : 0;
  const end = Math.min(text.length, start + 140);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

/** [start, end) of each word-start occurrence of each query word, extended to the end of that word. */
function ranges(snippet: string, words: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  for (const w of words) {
    const re = new RegExp(`(^|[^\\p{L}\\p{N}_])(${escape(w)}[\\p{L}\\p{N}_]*)`, "giu");
    for (const m of snippet.matchAll(re)) {
      const at = m.index! + m[1]!.length;
      out.push([at, at + m[2]!.length]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

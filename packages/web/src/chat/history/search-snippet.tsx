import type { SearchMatch } from "@coffer/protocol";

export interface SnippetPart {
  readonly text: string;
  readonly hit: boolean;
}

/**
 * The snippet cut at its highlight offsets (the daemon's [start, end) ranges into the plain
 * text): out-of-range, empty or overlapping ranges are clipped, so a bad range never breaks
 * the row or drops text.
 */
export function snippetParts(snippet: string, highlights: SearchMatch["highlights"]): SnippetPart[] {
  const ranges = highlights
    .map(([a, b]) => [Math.max(0, Math.min(a, snippet.length)), Math.max(0, Math.min(b, snippet.length))] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const [a, b] of ranges) {
    const start = Math.max(a, at);
    if (b <= start) continue;
    if (start > at) parts.push({ text: snippet.slice(at, start), hit: false });
    parts.push({ text: snippet.slice(start, b), hit: true });
    at = b;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), hit: false });
  return parts;
}

/** Why a conversation is in the search results: the matching text, its terms marked. */
export function SearchSnippet({ match }: { match: SearchMatch }) {
  if (!match.snippet) return null;
  return (
    <span className="history-snippet">
      {snippetParts(match.snippet, match.highlights).map((p, i) =>
        p.hit ? (
          <mark key={i} className="hit">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </span>
  );
}

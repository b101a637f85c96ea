export type BenchQuery =
  | { readonly name: string; readonly kind: "list" }
  /** `limit`: a page size other than the one the page asks for (shown for comparison, no bar). */
  | { readonly name: string; readonly kind: "search"; readonly word: string; readonly limit?: number }
  | { readonly name: string; readonly kind: "thread"; readonly conversationIds: readonly string[] };

/** The HTTP path (under /api/v1) a query is sent to; the i-th run of a thread query rotates conversations. */
export function pathFor(q: BenchQuery, i: number): string {
  switch (q.kind) {
    case "list":
      return "/chat/conversations";
    case "search":
      return `/chat/conversations?q=${encodeURIComponent(q.word)}${q.limit ? `&limit=${q.limit}` : ""}`;
    case "thread":
      return `/chat/conversations/${q.conversationIds[i % q.conversationIds.length]}/messages?limit=200`;
  }
}

/** The bar (p50, ms) each query kind must meet over HTTP (issue 16: any search ≤ 3 ms). */
export const BAR_P50_MS: Record<BenchQuery["kind"], number> = { list: 3, search: 3, thread: 5 };

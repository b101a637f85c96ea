import { SearchToolsInput, type SearchToolsOutput } from "@coffer/protocol";
import type { BuiltinTool } from "./builtin-tools.js";
import type { GatewayTool } from "./gateway.js";

const K1 = 1.2;
const B = 0.75;
const DEFAULT_TOP_K = 5;

/** Words of a tool name or description: `github__create_issue`, `createIssue` → create, issue. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/**
 * BM25 over each tool's name (counted twice: a name is the strongest signal of intent) and
 * description. Small catalogues (tens to hundreds of tools) are ranked from scratch on each query.
 */
export function rankTools(query: string, tools: readonly GatewayTool[], topK: number): { tool: GatewayTool; score: number }[] {
  const terms = [...new Set(tokenize(query))];
  const docs = tools.map((tool) => {
    const name = tokenize(tool.name);
    const words = [...name, ...name, ...tokenize(tool.description)];
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { tool, tf, length: words.length };
  });
  const avgLength = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const idf = new Map(
    terms.map((t) => {
      const n = docs.filter((d) => d.tf.has(t)).length;
      return [t, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))];
    }),
  );
  return docs
    .map(({ tool, tf, length }) => {
      let score = 0;
      for (const t of terms) {
        const f = tf.get(t) ?? 0;
        if (f) score += idf.get(t)! * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / (avgLength || 1))));
      }
      return { tool, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
    .slice(0, topK);
}

/** `coffer__search_tools`: which upstream tool fits an intent. Coffer's own tools are not searched. */
export function searchToolsTool(upstreamTools: () => GatewayTool[]): BuiltinTool<typeof SearchToolsInput> {
  return {
    name: "search_tools",
    description:
      "Find the right tool among the owner's MCP servers for what you want to do. Give a few words of intent; " +
      "returns the best-matching tools with their input schemas, best first.",
    input: SearchToolsInput,
    readOnly: true,
    async run({ query, top_k }) {
      if (!query.trim()) return { ok: false, error: "search_tools requires a non-empty 'query'" };
      const tools = upstreamTools();
      const ranked = rankTools(query, tools, top_k ?? DEFAULT_TOP_K);
      const value: SearchToolsOutput = {
        tools: ranked.map(({ tool, score }) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          score: Math.round(score * 1000) / 1000,
        })),
        total_searched: tools.length,
      };
      return { ok: true, value };
    },
  };
}

// The layering rules of packages/daemon/src (docs/architecture.md, "The floors").
// A rule names a layer, what it may import, and which third-party modules it may use.

/** Third-party modules confined to one infrastructure folder each. */
export const CONFINED = [
  { module: /^better-sqlite3$/, home: "infrastructure/sqlite" },
  { module: /^@anthropic-ai\/claude-agent-sdk/, home: "infrastructure/agents" },
  { module: /^@modelcontextprotocol\/sdk/, home: "infrastructure/mcp" },
  { module: /^(ai|@ai-sdk\/.+|openai|@anthropic-ai\/sdk|ollama)(\/|$)/, home: "infrastructure/llm" },
  { module: /^(grammy|@grammyjs\/.+)(\/|$)/, home: "infrastructure/telegram" },
  { module: /^@discordjs\/.+/, home: "infrastructure/discord" },
  { module: /^sharp$/, home: "infrastructure/images" },
  { module: /^croner$/, home: "infrastructure/cron" },
  // Agents and stdio MCP servers are child processes; credentials runs the OS keyring's `secret-tool`.
  { module: /^node:child_process$|^child_process$/, home: ["infrastructure/agents", "infrastructure/mcp", "infrastructure/credentials"] },
];

/** Which layers a layer may import from (besides itself). */
export const LAYERS = {
  domain: { may: [], external: [/^@coffer\/protocol$/] },
  application: { may: ["domain"], external: [/^@coffer\/protocol$/, /^zod$/, /^node:(crypto|events|timers|timers\/promises|util|path)$/] },
  infrastructure: { may: ["application", "domain"], external: "any" },
  http: { may: ["application", "domain"], external: "any" },
  root: { may: ["domain", "application", "infrastructure", "http"], external: "any" },
};

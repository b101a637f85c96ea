/**
 * A tool's name as people read it: `coffer · recall` for `mcp__coffer__coffer__recall`
 * (Claude Code's name for a tool behind Coffer's gateway) or `coffer__coffer__recall` (Codex's),
 * `github · create_issue` for an upstream tool behind the gateway, `server · tool` for any other
 * MCP server. Built-in tools (`Bash`, `Read`) are shown as they are. The page and the CLI both
 * use this, so a tool reads the same everywhere.
 */
export function humanToolName(name: string): string {
  const bare = name.startsWith("mcp__") ? name.slice("mcp__".length) : name;
  const parts = bare.split("__").filter(Boolean);
  if (parts.length < 2) return name;
  // Coffer's gateway is one MCP server ("coffer") whose tools are named "<server>__<tool>".
  const rest = parts[0] === "coffer" && parts.length >= 3 ? parts.slice(1) : parts;
  return `${rest[0]} · ${rest.slice(1).join("__")}`;
}

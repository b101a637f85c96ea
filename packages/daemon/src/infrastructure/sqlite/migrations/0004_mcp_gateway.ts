/**
 * The MCP gateway: the owner's upstream servers and the invocation log. A server's launch
 * details stay one JSON document (transport-specific; values may be credential refs, never
 * resolved secrets). The log keeps who/what/when/how long/outcome — never arguments or results.
 */
export const sql = `
CREATE TABLE mcp_servers (
  name       TEXT PRIMARY KEY,
  transport  TEXT NOT NULL CHECK (transport IN ('stdio', 'http')),
  config     TEXT NOT NULL,
  enabled    INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE mcp_invocations (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          INTEGER NOT NULL,
  caller      TEXT NOT NULL,
  tool        TEXT NOT NULL,
  server      TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  outcome     TEXT NOT NULL
);
CREATE INDEX mcp_invocations_server ON mcp_invocations (server, id);
CREATE INDEX mcp_invocations_tool ON mcp_invocations (tool, id);
`;

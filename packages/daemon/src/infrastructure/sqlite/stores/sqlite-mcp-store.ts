import type {
  Invocation,
  InvocationQuery,
  McpServerConfig,
  McpStore,
  NewInvocation,
} from "../../../application/gateway/gateway-ports.js";
import type { Db } from "../database.js";

interface ServerRow {
  name: string;
  transport: "stdio" | "http";
  config: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/**
 * The transport-specific part of a server, kept as one JSON document under the config's own
 * field names: the config is its row plus this document (docs/decisions.md, "Each record mapped once").
 */
type LaunchDoc = Omit<McpServerConfig, keyof ServerRow>;

const SERVER_COLS = "name, transport, config, enabled, created_at, updated_at";

/** A log row with its conversation's current title (none once the conversation is gone). */
const INVOCATION_COLS =
  "i.id, i.at, i.caller, i.tool, i.server, i.duration_ms, i.outcome, i.agent_key, c.id AS conversation_id, c.title AS conversation_title";
const INVOCATION_FROM = "mcp_invocations i LEFT JOIN conversations c ON c.id = i.conversation_id";

/** The gateway's servers and invocation log on better-sqlite3. */
export class SqliteMcpStore implements McpStore {
  private readonly s;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      list: p(`SELECT ${SERVER_COLS} FROM mcp_servers ORDER BY name`),
      get: p(`SELECT ${SERVER_COLS} FROM mcp_servers WHERE name = ?`),
      insert: p(
        "INSERT INTO mcp_servers (name, transport, config, enabled, created_at, updated_at) VALUES (@name, @transport, @config, @enabled, @created_at, @updated_at)",
      ),
      update: p("UPDATE mcp_servers SET config = @config, enabled = @enabled, updated_at = @updated_at WHERE name = @name"),
      delete: p("DELETE FROM mcp_servers WHERE name = ?"),
      record: p(
        "INSERT INTO mcp_invocations (at, caller, tool, server, duration_ms, outcome, agent_key, conversation_id) VALUES (@at, @caller, @tool, @server, @duration_ms, @outcome, @agent_key, @conversation_id)",
      ),
      invocation: p(`SELECT ${INVOCATION_COLS} FROM ${INVOCATION_FROM} WHERE i.id = ?`),
      // No index on `at`: this scan runs only on retention passes (hourly), never per call.
      pruneOld: p("DELETE FROM mcp_invocations WHERE at < ?"),
      // The id of the newest row to drop, found through the primary key; NULL (nothing) when under the cap.
      pruneExcess: p("DELETE FROM mcp_invocations WHERE id <= (SELECT id FROM mcp_invocations ORDER BY id DESC LIMIT 1 OFFSET ?)"),
    };
  }

  listServers(): McpServerConfig[] {
    return (this.s.list.all() as ServerRow[]).map(toConfig);
  }

  getServer(name: string): McpServerConfig | null {
    const row = this.s.get.get(name) as ServerRow | undefined;
    return row ? toConfig(row) : null;
  }

  insertServer(config: McpServerConfig): void {
    this.s.insert.run(toRow(config));
  }

  updateServer(config: McpServerConfig): void {
    this.s.update.run(toRow(config));
  }

  deleteServer(name: string): boolean {
    return this.s.delete.run(name).changes > 0;
  }

  recordInvocation(invocation: NewInvocation): Invocation {
    const id = this.s.record.run(invocation).lastInsertRowid;
    return this.s.invocation.get(id) as Invocation;
  }

  pruneInvocations(olderThan: number | null, keepNewest: number): number {
    const old = olderThan === null ? 0 : this.s.pruneOld.run(olderThan).changes;
    return old + this.s.pruneExcess.run(keepNewest).changes;
  }

  listInvocations(query: InvocationQuery): { invocations: Invocation[]; hasMore: boolean } {
    const where: string[] = [];
    if (query.before !== undefined) where.push("i.id < @before");
    if (query.server !== undefined) where.push("i.server = @server");
    if (query.tool !== undefined) where.push("i.tool = @tool");
    const sql = `SELECT ${INVOCATION_COLS} FROM ${INVOCATION_FROM} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY i.id DESC LIMIT @limit`;
    const rows = this.db.prepare(sql).all({ ...query, limit: query.limit + 1 }) as Invocation[];
    return { invocations: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }
}

function toRow({ name, transport, enabled, created_at, updated_at, ...launch }: McpServerConfig): ServerRow {
  const doc: LaunchDoc = launch;
  return { name, transport, config: JSON.stringify(doc), enabled: enabled ? 1 : 0, created_at, updated_at };
}

function toConfig({ config, enabled, ...row }: ServerRow): McpServerConfig {
  return { ...row, ...(JSON.parse(config) as LaunchDoc), enabled: enabled === 1 };
}

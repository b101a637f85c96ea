/**
 * Audit rows are scrubbed where they are written, not only where they are read: GET /audit
 * passes through the response scrubber, so a row stored with a credential's value in it would
 * look clean over REST while the database file (and every backup of it) kept the value.
 *
 * The owner stores a key, then adds an MCP server whose URL carries that same key in its query
 * (as many HTTP MCP servers are configured): the audit row for the change names the URL. The
 * test reads the audit_log table of the real SQLite file, not the API.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon } from "../support/test-daemon.js";

acceptance("024-proof-holes", "an audit row whose details carry a credential's value is stored scrubbed in the database file", async () => {
  const secret = `mcp-key-${randomBytes(16).toString("hex")}`;
  const t = await startTestDaemon();
  try {
    expect((await t.api.put("/credentials/search-key", { secret })).status).toBe(200);
    // Port 1 on loopback: nothing listens, so the upstream simply fails to connect.
    const url = `http://127.0.0.1:1/mcp?api_key=${secret}`;
    expect((await t.api.post("/mcp/servers", { name: "search", transport: "http", url })).status).toBe(201);
    expect((await t.api.patch("/mcp/servers/search", { url: `${url}&v=2` })).status).toBe(200);

    const db = new Database(join(t.home, "coffer.db"), { readonly: true });
    const rows = db.prepare("SELECT action, details FROM audit_log WHERE action LIKE 'mcp_server_%' ORDER BY id").all() as {
      action: string;
      details: string;
    }[];
    db.close();
    expect(rows.map((r) => r.action)).toEqual(["mcp_server_added", "mcp_server_changed"]);
    // The URL is kept (what changed is readable), with the key replaced by its ref.
    expect(JSON.parse(rows[0]!.details).url).toBe("http://127.0.0.1:1/mcp?api_key=[credential:search-key]");
    expect(JSON.parse(rows[1]!.details).url).toBe("http://127.0.0.1:1/mcp?api_key=[credential:search-key]&v=2");
    expect(rows.filter((r) => r.details.includes(secret))).toEqual([]);

    // The API shows the very same row.
    const listed = (await t.api.get("/audit?action=mcp_server_added")).body.entries as { details: { url: string } }[];
    expect(listed[0]!.details.url).toBe("http://127.0.0.1:1/mcp?api_key=[credential:search-key]");
  } finally {
    await t.close();
  }
});

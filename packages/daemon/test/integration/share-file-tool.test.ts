import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AttachmentOut } from "@coffer/protocol";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { AttachmentService } from "../../src/application/attachments/attachment-service.js";
import { mediaTypeOf, shareFileTool } from "../../src/application/attachments/share-file-tool.js";
import { openDatabase } from "../../src/infrastructure/sqlite/database.js";
import { openChatStores } from "../../src/infrastructure/sqlite/stores/sqlite-chat-stores.js";
import { SqliteAttachmentStore } from "../../src/infrastructure/sqlite/stores/sqlite-attachment-store.js";
import { sqliteAuditSink } from "../../src/infrastructure/sqlite/stores/sqlite-audit-log.js";
import { SqliteAuditReader } from "../../src/infrastructure/sqlite/stores/sqlite-audit-reader.js";
import { FileAttachmentBlobs } from "../../src/infrastructure/system/attachment-blobs.js";
import { FsShareableFiles } from "../../src/infrastructure/system/shareable-files.js";

// The tool over real SQLite, real blobs and real files. Only the link to a running turn is a
// recorder here: the turn rooms' side (TurnSharedFiles) is proven with the real agent CLIs in
// share-file-agents.test.ts (docs/decisions.md, "coffer__share_file wired on every surface").
describe("coffer__share_file", () => {
  let base: string;
  let db: ReturnType<typeof openDatabase>;
  let attached: { conversationId: string; attachment: AttachmentOut; caption: string | undefined }[];
  let turnRunning: boolean;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "coffer-share-tool-"));
    mkdirSync(join(base, "work"));
    mkdirSync(join(base, "data"));
    writeFileSync(join(base, "work", "report.pdf"), "%PDF-1.4 made by the agent");
    writeFileSync(join(base, "secret.txt"), "the owner's other file");
    db = openDatabase(join(base, "data", "coffer.db"));
    attached = [];
    turnRunning = true;
  });
  afterEach(() => {
    db.close();
    rmSync(base, { recursive: true, force: true });
  });

  function tool() {
    let n = 0;
    const clock = { now: () => 1_000 };
    const attachments = new AttachmentService({
      tx: { transaction: (fn) => db.transaction(fn)() },
      store: new SqliteAttachmentStore(db),
      blobs: new FileAttachmentBlobs(join(base, "data", "attachments")),
      clock,
      ids: () => `att-${++n}`,
      maxBytes: 1024 * 1024,
    });
    const share = shareFileTool({
      files: new FsShareableFiles(),
      rootsFor: (id) => (id === "conv-1" ? { workspace: join(base, "work"), dataDir: join(base, "data"), maxBytes: attachments.maxBytes } : null),
      upload: (name, mediaType, body) => attachments.upload(name, mediaType, body),
      attach: (conversationId, attachment, caption) => {
        if (!turnRunning) return false;
        attached.push({ conversationId, attachment, caption });
        return true;
      },
      audit: sqliteAuditSink(db),
      clock,
    });
    return { share, attachments, audit: new SqliteAuditReader(db) };
  }
  const agent = { kind: "agent" as const, agent: "claude_code", conversationId: "conv-1" };

  test("a file in the workspace is stored as an attachment, linked to the turn and audited", async () => {
    const { share, attachments, audit } = tool();
    const outcome = await share.run({ path: "report.pdf", caption: "the report" }, { caller: "claude-code", principal: agent });
    expect(outcome).toEqual({ ok: true, value: { attachment_id: "att-1", name: "report.pdf", size: 26 } });
    expect(attached).toEqual([{ conversationId: "conv-1", attachment: { id: "att-1", name: "report.pdf", media_type: "application/pdf", size: 26 }, caption: "the report" }]);
    expect(readFileSync(attachments.open("att-1").path, "utf8")).toBe("%PDF-1.4 made by the agent");
    expect(audit.list({ action: "file_shared", limit: 5 })).toMatchObject([{ actor: "agent", details: { conversation_id: "conv-1", attachment_id: "att-1", path: "report.pdf" } }]);
  });

  test("a path outside the workspace is refused with a clear error and audited without its content", async () => {
    const { share, audit } = tool();
    const outcome = await share.run({ path: "../secret.txt" }, { caller: "claude-code", principal: agent });
    expect(outcome).toEqual({ ok: false, error: expect.stringContaining("outside your working directory") });
    expect(attached).toEqual([]);
    const rows = audit.list({ action: "share_file_refused", limit: 5 });
    expect(rows).toMatchObject([{ actor: "agent", details: { reason: "outside_workspace", path: "../secret.txt", agent: "claude_code" } }]);
    expect(JSON.stringify(rows)).not.toContain("the owner's other file");
  });

  test("the owner's own MCP client and a call outside a turn get an error, not an attachment", async () => {
    const { share } = tool();
    expect(await share.run({ path: "report.pdf" }, { caller: "owner-client", principal: { kind: "owner" } })).toMatchObject({ ok: false });
    turnRunning = false;
    expect(await share.run({ path: "report.pdf" }, { caller: "claude-code", principal: agent })).toEqual({ ok: false, error: expect.stringContaining("during your turn") });
  });

  test("shared files join the assistant message in order and are read back with it (after a reopen too)", async () => {
    const { share } = tool();
    const chat = openChatStores(db);
    const store = new SqliteAttachmentStore(db);
    chat.conversations.insertConversation({ id: "conv-1", agentKey: "claude_code", title: "t", titleSetByOwner: false, agentConfig: { cwd: join(base, "work") }, channel: null, now: 1 });
    chat.messages.insertMessage({ id: "msg-a", conversationId: "conv-1", role: "assistant", content: [], status: "streaming", modelId: null, clientId: null, now: 2 });
    writeFileSync(join(base, "work", "chart.png"), Buffer.alloc(10, 7));
    await share.run({ path: "report.pdf" }, { caller: "claude-code", principal: agent });
    await share.run({ path: "chart.png" }, { caller: "claude-code", principal: agent });
    for (const a of attached) store.appendToMessage("msg-a", a.attachment.id);
    db.close();
    db = openDatabase(join(base, "data", "coffer.db"));
    const again = openChatStores(db).messages;
    expect(again.getMessage("msg-a")?.attachments).toEqual([
      { id: "att-1", name: "report.pdf", media_type: "application/pdf", size: 26 },
      { id: "att-2", name: "chart.png", media_type: "image/png", size: 10 },
    ]);
    expect(again.listMessages("conv-1", undefined, 10).messages[0]?.attachments?.map((a) => a.id)).toEqual(["att-1", "att-2"]);
  });

  test("images are typed as images (shown inline), unknown files as bytes (a download)", () => {
    expect(mediaTypeOf("chart.PNG")).toBe("image/png");
    expect(mediaTypeOf("Makefile")).toBe("application/octet-stream");
    expect(mediaTypeOf("data.parquet")).toBe("application/octet-stream");
  });
});

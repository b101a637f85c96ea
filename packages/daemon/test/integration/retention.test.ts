/**
 * The two-stage retention lifecycle, on a real daemon with a clock the test moves:
 * idle conversations are archived, archived ones are deleted with their messages later,
 * either stage can be turned off, and a conversation with a running turn or queued
 * messages is never touched.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, test } from "vitest";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const DAY = 86_400_000;
const T0 = Date.parse("2026-05-20T00:00:00Z");

class TestClock {
  constructor(public ms: number) {}
  now = () => this.ms;
  set(ms: number) {
    this.ms = ms;
  }
}

let t: TestDaemon;
let clock: TestClock;
afterEach(() => t.close());

async function start(): Promise<void> {
  clock = new TestClock(T0);
  t = await startTestDaemon({ clock });
}

/** A conversation with one finished exchange, its last message at the clock's current time. */
async function conversationWithReply(text = "hello"): Promise<string> {
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  await t.api.post(`/chat/conversations/${id}/messages`, { text });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  return id;
}

const conv = async (id: string) => (await t.api.get(`/chat/conversations/${id}`)).body;
function messageRows(id: string): number {
  const db = new Database(join(t.home, "coffer.db"), { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?").get(id) as { n: number }).n;
  } finally {
    db.close();
  }
}
function auditRows(action: string): Record<string, unknown>[] {
  const db = new Database(join(t.home, "coffer.db"), { readonly: true });
  try {
    return (db.prepare("SELECT actor, details FROM audit_log WHERE action = ? ORDER BY id").all(action) as { actor: string; details: string }[]).map(
      (r) => ({ actor: r.actor, ...JSON.parse(r.details) }),
    );
  } finally {
    db.close();
  }
}

describe("retention lifecycle", { timeout: 20_000 }, () => {
  test("defaults are archive after 7 idle days and delete 30 days after archiving", async () => {
    await start();
    expect((await t.api.get("/settings/retention")).body).toEqual({ archive_after_days: 7, delete_after_days: 30 });
  });

  test("a conversation idle 8 days is archived (not deleted); one active a day ago is untouched", async () => {
    await start();
    const idle = await conversationWithReply();
    clock.set(T0 + 7 * DAY);
    const active = await conversationWithReply();
    clock.set(T0 + 8 * DAY);

    expect(await t.daemon.retention.runOnce()).toEqual({ archived: 1, deleted: 0, skipped: 0 });
    expect((await conv(idle)).archived_at).toBe(new Date(T0 + 8 * DAY).toISOString());
    expect(messageRows(idle)).toBe(2);
    expect((await conv(active)).archived_at).toBeNull();
    // Reversible: the owner restores it.
    expect((await t.api.post(`/chat/conversations/${idle}/unarchive`)).body.archived_at).toBeNull();
  });

  test("a conversation archived 31 days ago is deleted with its messages, and the deletion is audited with counts", async () => {
    await start();
    const old = await conversationWithReply();
    const recent = await conversationWithReply();
    await t.api.post(`/chat/conversations/${old}/archive`);
    clock.set(T0 + 10 * DAY);
    await t.api.post(`/chat/conversations/${recent}/archive`);
    clock.set(T0 + 31 * DAY);
    expect(messageRows(old)).toBe(2);

    expect(await t.daemon.retention.runOnce()).toEqual({ archived: 0, deleted: 1, skipped: 0 });
    expect((await t.api.get(`/chat/conversations/${old}`)).status).toBe(404);
    expect(messageRows(old)).toBe(0);
    expect((await conv(recent)).archived_at).not.toBeNull();
    expect(auditRows("retention_pass")).toEqual([
      { actor: "retention", archived: 0, deleted: 1, skipped: 0, archive_after_days: 7, delete_after_days: 30 },
    ]);
    expect(auditRows("conversation_deleted")).toEqual([{ actor: "retention", conversation_id: old }]);
  });

  test("keep-forever turns a stage off (99 idle days stay active, 99 archived days stay archived)", async () => {
    await start();
    const idle = await conversationWithReply();
    const archived = await conversationWithReply();
    await t.api.post(`/chat/conversations/${archived}/archive`);
    const put = await t.api.put("/settings/retention", { archive_after_days: null, delete_after_days: null });
    expect(put.body).toEqual({ archive_after_days: null, delete_after_days: null });
    clock.set(T0 + 99 * DAY);

    expect(await t.daemon.retention.runOnce()).toEqual({ archived: 0, deleted: 0, skipped: 0 });
    expect((await conv(idle)).archived_at).toBeNull();
    expect((await conv(archived)).archived_at).not.toBeNull();

    // Windows are editable: a shorter archive window takes effect on the next pass.
    expect((await t.api.put("/settings/retention", { archive_after_days: 90 })).body).toEqual({ archive_after_days: 90, delete_after_days: null });
    expect(await t.daemon.retention.runOnce()).toEqual({ archived: 1, deleted: 0, skipped: 0 });
    expect((await t.api.put("/settings/retention", { delete_after_days: 0 })).status).toBe(422);
  });

  test("a conversation with a running turn or queued messages is never archived or deleted", async () => {
    await start();
    const running = await t.conversation();
    const runningSub = await t.subscribe(running);
    await t.api.post(`/chat/conversations/${running}/messages`, { text: script({ text: "working " }, { gate: "long" }) });
    await runningSub.waitFor((e) => e.type === "text_delta");

    // Queued: a message waits behind an interrupted turn (the queue pauses and keeps it).
    const queued = await t.conversation();
    const queuedSub = await t.subscribe(queued);
    await t.api.post(`/chat/conversations/${queued}/messages`, { text: script({ text: "partial " }, { hang: true }) });
    await queuedSub.waitFor((e) => e.type === "text_delta");
    await t.api.post(`/chat/conversations/${queued}/messages`, { text: "waiting" });
    await t.api.post(`/chat/conversations/${queued}/interrupt`);
    expect((await t.api.get(`/chat/conversations/${queued}/pending`)).body).toMatchObject({ pending: [{ text: "waiting" }], paused: true });

    clock.set(T0 + 8 * DAY);
    // The queued one is never even a candidate; the running one is passed over.
    expect(await t.daemon.retention.runOnce()).toEqual({ archived: 0, deleted: 0, skipped: 1 });
    expect((await conv(running)).archived_at).toBeNull();
    expect((await conv(queued)).archived_at).toBeNull();

    // Archived by the owner, then past the delete window: still never deleted while busy.
    await t.api.post(`/chat/conversations/${running}/archive`);
    await t.api.post(`/chat/conversations/${queued}/archive`);
    clock.set(T0 + 40 * DAY);
    expect(await t.daemon.retention.runOnce()).toEqual({ archived: 0, deleted: 0, skipped: 1 });
    expect((await t.api.get(`/chat/conversations/${running}`)).status).toBe(200);
    expect((await t.api.get(`/chat/conversations/${queued}`)).status).toBe(200);

    t.scripted.gates.open("long");
    await runningSub.waitFor((e) => e.type === "turn_done");
    runningSub.close();
    queuedSub.close();
  });
});

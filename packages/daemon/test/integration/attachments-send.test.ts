import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { restoreBackup } from "../../src/main.js";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "025-attachments";

let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function upload(d: TestDaemon, name: string, mediaType: string, bytes: Buffer): Promise<{ id: string; name: string; media_type: string; size: number }> {
  const res = await fetch(`${d.daemon.url}/api/v1/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${d.daemon.token}`, "content-type": mediaType },
    body: bytes,
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
}

function blobCount(home: string): number {
  const root = join(home, "attachments");
  if (!existsSync(root)) return 0;
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

const send = (d: TestDaemon, id: string, body: Record<string, unknown>) => d.api.post(`/chat/conversations/${id}/messages`, body);
const userMessages = async (d: TestDaemon, id: string) => (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages.filter((m: any) => m.role === "user");

describe("attachments travel with their message", () => {
  acceptance(SPEC, "a message sent with attachment ids carries them in the thread, in order, after a restart too", async () => {
    const home = await makeHome();
    t = await startTestDaemon({ home });
    const id = await t.conversation();
    const log = await upload(t, "build.log", "text/plain", Buffer.from("error: it broke\n"));
    const pdf = await upload(t, "spec.pdf", "application/pdf", Buffer.from("%PDF-1.4 tiny"));
    const sub = await t.subscribe(id);
    expect((await send(t, id, { text: "see these", attachment_ids: [pdf.id, log.id] })).status).toBe(202);
    const start = await sub.waitFor((e) => e.type === "turn_start");
    expect((start.event as any).user_message.attachments).toEqual([pdf, log]);
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    expect((await userMessages(t, id))[0].attachments).toEqual([pdf, log]);
    await t.stop();
    t = await startTestDaemon({ home });
    const after = await userMessages(t, id);
    expect(after[0].attachments).toEqual([pdf, log]);
    expect(after[0].content).toEqual([{ type: "text", text: "see these" }]);
  });

  acceptance(SPEC, "the agent receives the message text plus one line per attachment naming its read-only copy under agent-files", async () => {
    t = await startTestDaemon();
    const id = await t.conversation();
    const log = await upload(t, "build.log", "text/plain", Buffer.from("error: it broke\n"));
    const sub = await t.subscribe(id);
    await send(t, id, { text: "why?", attachment_ids: [log.id] });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    const seen = t.scripted.turns.at(-1)!.text;
    expect(seen.startsWith("why?\n\n")).toBe(true);
    const line = seen.split("\n").find((l) => l.startsWith("- build.log (text/plain, 16 bytes): "))!;
    expect(line).toBeDefined();
    const path = line.slice("- build.log (text/plain, 16 bytes): ".length);
    // A read-only copy of its own, outside the private store and the owner's working directory.
    expect(path).toBe(join(t.home, "agent-files", id, log.id, "build.log"));
    expect(readFileSync(path, "utf8")).toBe("error: it broke\n");
    expect(statSync(path).mode & 0o777).toBe(0o400);
    expect(statSync(join(t.home, "agent-files", id)).mode & 0o777).toBe(0o700);
    // The thread keeps the owner's words only.
    expect((await userMessages(t, id))[0].content).toEqual([{ type: "text", text: "why?" }]);
    // The copy goes with its conversation.
    expect((await t.api.delete(`/chat/conversations/${id}`)).status).toBeLessThan(300);
    expect(existsSync(join(t.home, "agent-files", id))).toBe(false);
  });

  acceptance(SPEC, "a message naming an attachment that does not exist is refused before anything is written", async () => {
    t = await startTestDaemon();
    const id = await t.conversation();
    const res = await send(t, id, { text: "hello", attachment_ids: ["missing"] });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("ATTACHMENT_NOT_FOUND");
    expect(await userMessages(t, id)).toEqual([]);
    expect(t.scripted.turns).toEqual([]);
  });

  acceptance(SPEC, "a queued message keeps its attachments through edit, reorder and send-now", async () => {
    t = await startTestDaemon();
    const id = await t.conversation();
    const a = await upload(t, "a.txt", "text/plain", Buffer.from("aaa"));
    const b = await upload(t, "b.png", "image/png", Buffer.from("not really a png"));
    const sub = await t.subscribe(id);
    await send(t, id, { text: script({ text: "busy" }, { gate: "g1" }) });
    await sub.waitFor((e) => e.type === "text_delta");
    const first = await send(t, id, { text: "first queued", attachment_ids: [a.id] });
    const second = await send(t, id, { text: "second queued", attachment_ids: [b.id, a.id] });
    expect(first.body.queued).toBe(true);
    const queue = async () => (await t!.api.get(`/chat/conversations/${id}/pending`)).body.pending;
    expect((await queue()).map((p: any) => p.attachments)).toEqual([[a], [b, a]]);
    // Edit the first one's text and swap the order: the files stay with their messages.
    const put = await t.api.put(`/chat/conversations/${id}/pending`, {
      pending: [{ id: second.body.pending_id }, { id: first.body.pending_id, text: "first, edited" }],
    });
    expect(put.status).toBe(200);
    expect(put.body.pending).toEqual([
      { id: second.body.pending_id, text: "second queued", attachments: [b, a] },
      { id: first.body.pending_id, text: "first, edited", attachments: [a] },
    ]);
    // Send now while the turn runs: a message with files is not steered (text only) but goes first, files kept.
    const now = await t.api.post(`/chat/conversations/${id}/pending/${first.body.pending_id}/steer`);
    expect(now.status).toBe(202);
    expect((await queue()).map((p: any) => [p.text, p.attachments])).toEqual([
      ["first, edited", [a]],
      ["second queued", [b, a]],
    ]);
    t.scripted.gates.open("g1");
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    sub.close();
    const users = await userMessages(t, id);
    expect(users.slice(1).map((m: any) => [m.content[0].text, m.attachments])).toEqual([
      ["first, edited", [a]],
      ["second queued", [b, a]],
    ]);
  });

  acceptance(SPEC, "deleting a conversation (by the owner or by retention) removes its attachment rows and every blob no other row names", async () => {
    const clock = { ms: Date.now(), now() { return this.ms; } };
    t = await startTestDaemon({ clock });
    const gone = await t.conversation();
    const kept = await t.conversation();
    const own = await upload(t, "own.txt", "text/plain", Buffer.from("only in the deleted one"));
    const shared = await upload(t, "shared.txt", "text/plain", Buffer.from("same bytes in both"));
    const sharedAgain = await upload(t, "shared copy.txt", "text/plain", Buffer.from("same bytes in both"));
    for (const [conv, ids] of [
      [gone, [own.id, shared.id]],
      [kept, [sharedAgain.id]],
    ] as const) {
      const sub = await t.subscribe(conv);
      await send(t, conv, { text: "files", attachment_ids: ids });
      await sub.waitFor((e) => e.type === "turn_done");
      sub.close();
    }
    expect(blobCount(t.home)).toBe(2);
    expect((await t.api.delete(`/chat/conversations/${gone}`)).status).toBe(204);
    // The deleted conversation's rows are gone; the bytes another conversation names stay.
    expect((await t.api.get(`/attachments/${own.id}`)).body.error.code).toBe("ATTACHMENT_NOT_FOUND");
    expect((await t.api.get(`/attachments/${shared.id}`)).body.error.code).toBe("ATTACHMENT_NOT_FOUND");
    expect((await t.api.get(`/attachments/${sharedAgain.id}`)).status).toBe(200);
    expect(blobCount(t.home)).toBe(1);
    // Retention deletes through the same path: the last conversation, archived long ago, goes with its files.
    await t.api.post(`/chat/conversations/${kept}/archive`);
    clock.ms += 31 * 86_400_000;
    expect(await t.daemon.retention.runOnce()).toMatchObject({ deleted: 1 });
    expect((await t.api.get(`/attachments/${sharedAgain.id}`)).status).toBe(404);
    expect(blobCount(t.home)).toBe(0);
  });
});

test("a steer with files waits in the queue instead (a steer carries text only)", async () => {
  t = await startTestDaemon();
  const id = await t.conversation();
  const a = await upload(t, "a.txt", "text/plain", Buffer.from("aaa"));
  const sub = await t.subscribe(id);
  await send(t, id, { text: script({ text: "busy" }, { gate: "g2" }) });
  await sub.waitFor((e) => e.type === "text_delta");
  const res = await send(t, id, { text: "with a file", attachment_ids: [a.id], delivery: "steer" });
  expect(res.body.queued).toBe(true);
  t.scripted.gates.open("g2");
  await sub.waitForCount((e) => e.type === "turn_done", 2);
  sub.close();
  expect((await userMessages(t, id))[1].attachments).toEqual([a]);
});

acceptance(SPEC, "a backup carries the attachments folder and a restore puts it back", async () => {
  t = await startTestDaemon();
  const id = await t.conversation();
  const log = await upload(t, "build.log", "text/plain", Buffer.from("error: it broke\n"));
  const sub = await t.subscribe(id);
  await send(t, id, { text: "keep my file", attachment_ids: [log.id] });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  const backup = await t.api.post("/settings/backups", {});
  expect(backup.status).toBe(201);
  const fresh = `${await makeHome()}-restored`;
  await restoreBackup({ file: backup.body.path, home: fresh });
  await t.close();
  t = await startTestDaemon({ home: fresh });
  expect((await userMessages(t, id))[0].attachments).toEqual([log]);
  const res = await fetch(`${t.daemon.url}/api/v1/attachments/${log.id}`, { headers: { authorization: `Bearer ${t.daemon.token}` } });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("error: it broke\n");
});

test("an upload never sent with a message is removed by the retention pass after a day; a sent one stays", async () => {
  const clock = { ms: Date.now(), now() { return this.ms; } };
  t = await startTestDaemon({ clock });
  const id = await t.conversation();
  const unsent = await upload(t, "draft.txt", "text/plain", Buffer.from("never sent"));
  const sent = await upload(t, "sent.txt", "text/plain", Buffer.from("sent"));
  const sub = await t.subscribe(id);
  await send(t, id, { text: "with a file", attachment_ids: [sent.id] });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  await t.daemon.retention.runOnce();
  expect(blobCount(t.home)).toBe(2);
  clock.ms += 86_400_000 + 1;
  await t.daemon.retention.runOnce();
  expect((await t.api.get(`/attachments/${unsent.id}`)).status).toBe(404);
  expect((await t.api.get(`/attachments/${sent.id}`)).status).toBe(200);
  expect(blobCount(t.home)).toBe(1);
});

test("a message may be files only: empty text with attachments is sent, empty text alone is refused", async () => {
  t = await startTestDaemon();
  const id = await t.conversation();
  const shot = await upload(t, "screen.png", "image/png", Buffer.from("not really a png"));
  const empty = await send(t, id, { text: "" });
  expect(empty.status).toBe(422);
  expect(empty.body.error.code).toBe("VALIDATION_FAILED");
  expect(await userMessages(t, id)).toEqual([]);
  const sub = await t.subscribe(id);
  expect((await send(t, id, { text: "", attachment_ids: [shot.id] })).status).toBe(202);
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  // The agent is told about the file (no leading blank lines); the thread keeps the owner's (empty) words and the file.
  expect(t.scripted.turns.at(-1)!.text.startsWith("[The owner attached a file;")).toBe(true);
  const [user] = await userMessages(t, id);
  expect(user.attachments).toEqual([shot]);
  expect(user.content).toEqual([{ type: "text", text: "" }]);
});

test("queue_changed carries each queued row's files, so every open page shows them on the row", async () => {
  t = await startTestDaemon();
  const id = await t.conversation();
  const log = await upload(t, "crash.log", "text/plain", Buffer.from("panic\n"));
  const sub = await t.subscribe(id);
  await send(t, id, { text: script({ text: "busy" }, { gate: "g3" }) });
  await sub.waitFor((e) => e.type === "text_delta");
  await send(t, id, { text: "and this log", attachment_ids: [log.id] });
  const frame = await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 1);
  expect(frame.event.type === "queue_changed" && frame.event.pending[0]).toMatchObject({ text: "and this log", attachments: [log] });
  t.scripted.gates.open("g3");
  await sub.waitForCount((e) => e.type === "turn_done", 2);
  sub.close();
});

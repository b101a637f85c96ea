/**
 * No orphan files (issue 25, "Done when": retention deletes attachments with their conversation,
 * a test counts files): every file under the data dir's attachments/ (the store) and agent-files/
 * (the agents' read-only copies and the images fitted for the model) is counted before and after
 * retention deletes a conversation, over a real daemon, real SQLite, real sharp.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { uploadAttachment } from "../support/upload-attachment.js";

let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Every file (not folder) under `<home>/<folder>`, temp files included, as paths relative to it. */
function filesUnder(home: string, folder: "attachments" | "agent-files"): string[] {
  const root = join(home, folder);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

async function sendAndFinish(d: TestDaemon, id: string, ids: string[]): Promise<void> {
  const sub = await d.subscribe(id);
  expect((await d.api.post(`/chat/conversations/${id}/messages`, { text: "files", attachment_ids: ids })).status).toBe(202);
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
}

test("retention deletes a conversation's files from attachments/ and agent-files/ alike: counted, nothing left behind", async () => {
  const clock = { ms: Date.now(), now() { return this.ms; } };
  t = await startTestDaemon({ clock });
  // Wider than the models take (1568 px): the turn fits it, a for-model/ copy beside the agent's.
  const wide = await sharp({ create: { width: 2400, height: 300, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
  const old = await t.conversation();
  const recent = await t.conversation();
  const shot = await uploadAttachment(t.daemon, "wide.png", "image/png", wide);
  const log = await uploadAttachment(t.daemon, "build.log", "text/plain", Buffer.from("error: it broke\n"));
  const notes = await uploadAttachment(t.daemon, "notes.md", "text/markdown", Buffer.from("# kept\n"));
  await sendAndFinish(t, old, [shot, log]);
  await sendAndFinish(t, recent, [notes]);

  expect(filesUnder(t.home, "attachments")).toHaveLength(3);
  expect(filesUnder(t.home, "agent-files")).toEqual(
    [
      join(old, shot, "wide.png"),
      join(old, shot, "for-model", "image.jpg"),
      join(old, log, "build.log"),
      join(recent, notes, "notes.md"),
    ].sort(),
  );

  // The old conversation is archived and ages past the retention window; the recent one is not.
  expect((await t.api.post(`/chat/conversations/${old}/archive`)).status).toBeLessThan(300);
  clock.ms += 31 * 86_400_000;
  expect(await t.daemon.retention.runOnce()).toMatchObject({ deleted: 1 });
  expect(filesUnder(t.home, "attachments")).toHaveLength(1);
  expect(filesUnder(t.home, "agent-files")).toEqual([join(recent, notes, "notes.md")]);
  expect(existsSync(join(t.home, "agent-files", old))).toBe(false);
  expect((await t.api.get("/system/stats")).body.attachments).toEqual({ count: 1, files: 1, bytes: 7 });

  // And the last one: nothing at all is left, in either folder.
  await t.api.post(`/chat/conversations/${recent}/archive`);
  clock.ms += 31 * 86_400_000;
  expect(await t.daemon.retention.runOnce()).toMatchObject({ deleted: 1 });
  expect(filesUnder(t.home, "attachments")).toEqual([]);
  expect(filesUnder(t.home, "agent-files")).toEqual([]);
  expect((await t.api.get("/system/stats")).body.attachments).toEqual({ count: 0, files: 0, bytes: 0 });
});

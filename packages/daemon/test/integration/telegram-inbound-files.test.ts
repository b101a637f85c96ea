/**
 * The owner's photos, albums and documents from the phone become attachments of one message in
 * the active conversation: a real daemon, grammY against the fake Bot API over real HTTP, real
 * SQLite and the real attachment store. Time (an album's quiet window, a download's stall watch)
 * moves by hand on a ManualAlarmClock: nothing here sleeps.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { VOICE_OFF_TEXT } from "../../src/application/channels/voice-notes.js";
import { acceptance } from "../support/acceptance.js";
import { FAST_CHANNEL, OWNER, channelOptions, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { script } from "../support/scripted-agent.js";
import type { FakeChatMessage } from "../fakes/fake-telegram.js";

const SPEC = "025-attachments";
const MB = 1024 * 1024;
/** The stall watch and the album window as the tests set them (the clock is moved by hand anyway). */
const STALL_MS = 10_000;
const QUIET_MS = 1500;

let rig: ChannelRig | undefined;
let restarted: TestDaemon | undefined;
let alarms: ManualAlarmClock;
afterEach(async () => {
  await rig?.close();
  await restarted?.close();
  rig = restarted = undefined;
});

async function start(overrides: { attachmentMaxBytes?: number } = {}): Promise<ChannelRig> {
  alarms = new ManualAlarmClock(Date.now());
  rig = await startChannelRig({
    alarms,
    channelTimings: { backoffMs: [20, 50, 100], editIntervalMs: 300, albumQuietMs: QUIET_MS, fileStallMs: STALL_MS },
    ...overrides,
  });
  return rig;
}

interface Attached {
  readonly id: string;
  readonly name: string;
  readonly media_type: string;
  readonly size: number;
}

/** The user messages of the chat's (only) conversation: text and attachments, in order. */
async function userMessages(r: ChannelRig): Promise<{ text: string; attachments: Attached[] }[]> {
  const conversations = (await r.t.api.get("/chat/conversations")).body.conversations as { id: string }[];
  const out: { text: string; attachments: Attached[] }[] = [];
  for (const c of conversations) {
    const messages = (await r.t.api.get(`/chat/conversations/${c.id}/messages`)).body.messages as any[];
    for (const m of messages.filter((m) => m.role === "user")) out.push({ text: m.content.map((b: any) => b.text ?? "").join(""), attachments: m.attachments ?? [] });
  }
  return out;
}

async function bytesOf(r: ChannelRig, id: string): Promise<Buffer> {
  const res = await fetch(`${r.t.daemon.url}/api/v1/attachments/${id}`, { headers: { authorization: `Bearer ${r.t.daemon.token}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The owner sends a message with media; resolves with its update id. */
function sendMedia(r: ChannelRig, caption: string, media: Record<string, unknown>): number {
  return r.tg.userSays({ chatId: OWNER.id, from: OWNER, text: caption, media }).update_id;
}

/** A text from the phone, answered by the scripted agent: every message before it has been handled. */
async function probe(r: ChannelRig, text = "probe"): Promise<void> {
  r.say(text);
  await r.botSays((m) => m.text.includes(`echo: ${text}`));
}

const echoes = (m: FakeChatMessage) => m.text.startsWith("echo:");

describe("telegram inbound files", () => {
  acceptance(SPEC, "a Telegram photo (the largest size) becomes an attachment of the message, its caption the text", async () => {
    const r = await start();
    const small = r.tg.addFile(Buffer.alloc(100, 1), { path: "photos/s.jpg" });
    const large = r.tg.addFile(Buffer.alloc(40_000, 7), { path: "photos/l.jpg" });
    sendMedia(r, "what is on this screen?", { photo: [{ ...small, width: 90, height: 60 }, { ...large, width: 1280, height: 853 }] });
    await r.botSays(echoes);
    const [message] = await userMessages(r);
    expect(message!.text).toBe("what is on this screen?");
    expect(message!.attachments).toMatchObject([{ media_type: "image/jpeg", size: 40_000 }]);
    expect(message!.attachments[0]!.name).toMatch(/^photo-\d+\.jpg$/);
    expect((await bytesOf(r, message!.attachments[0]!.id)).equals(Buffer.alloc(40_000, 7))).toBe(true);
    // Only the largest size was fetched.
    expect(r.tg.calls("getFile").map((c) => c.params.file_id)).toEqual([large.file_id]);
  });

  acceptance(SPEC, "a Telegram document (PDF, text, code, archive) becomes an attachment", async () => {
    const r = await start();
    const docs = [
      { bytes: Buffer.from("%PDF-1.4 spec"), file_name: "spec.pdf", mime_type: "application/pdf" },
      { bytes: Buffer.from("line 1\nline 2\n"), file_name: "build.log", mime_type: "text/plain" },
      { bytes: Buffer.from("export const x = 1;\n"), file_name: "x.ts", mime_type: "video/mp2t" },
      { bytes: Buffer.from("PK\u0003\u0004zip"), file_name: "src.zip", mime_type: "application/zip" },
    ];
    for (const d of docs) sendMedia(r, "", { document: { ...r.tg.addFile(d.bytes), file_name: d.file_name, mime_type: d.mime_type } });
    // Files only: each document is its own message with an empty text, queued behind the first.
    await probe(r);
    const messages = await userMessages(r);
    expect(messages.map((m) => [m.text, m.attachments.map((a) => [a.name, a.media_type, a.size])])).toEqual([
      ...docs.map((d) => ["", [[d.file_name, d.mime_type, d.bytes.length]]]),
      ["probe", []],
    ]);
    for (const [i, d] of docs.entries()) expect((await bytesOf(r, messages[i]!.attachments[0]!.id)).equals(d.bytes)).toBe(true);
  });

  it("a video and a document without a name arrive as files with a name made up for them", async () => {
    const r = await start();
    sendMedia(r, "clip", { video: { ...r.tg.addFile(Buffer.alloc(2000, 5)), width: 640, height: 360, duration: 2, mime_type: "video/mp4" } });
    sendMedia(r, "", { document: { ...r.tg.addFile(Buffer.from("raw")), mime_type: "not a type" } });
    await probe(r);
    const [video, doc] = await userMessages(r);
    expect(video!.attachments).toMatchObject([{ media_type: "video/mp4", size: 2000 }]);
    expect(video!.attachments[0]!.name).toMatch(/^video-\d+\.mp4$/);
    // A type the sender's app made up is stored as plain bytes, not refused.
    expect(doc!.attachments).toMatchObject([{ media_type: "application/octet-stream", size: 3 }]);
    expect(doc!.attachments[0]!.name).toMatch(/^file-\d+$/);
  });

  acceptance(SPEC, "a Telegram album (media group) becomes one message with all its files", async () => {
    const r = await start();
    const parts = [Buffer.alloc(3000, 1), Buffer.alloc(4000, 2), Buffer.alloc(5000, 3)].map((b) => r.tg.addFile(b));
    const part = (i: number, caption: string) => ({ chatId: OWNER.id, from: OWNER, text: caption, media: { photo: [{ ...parts[i]!, width: 800, height: 600 }], media_group_id: "album-1" } });
    // Two parts in one poll, the third in a later one: the caption rides on the second, as any part may carry it.
    const [, second] = r.tg.userSaysAll([part(0, ""), part(1, "three shots of the bug")]);
    await r.handled(second!.update_id);
    alarms.advanceBy(QUIET_MS - 1);
    const third = r.tg.userSays(part(2, ""));
    await r.handled(third.update_id);
    // Quiet for less than the window after the last part: the album still waits (its one alarm armed).
    alarms.advanceBy(QUIET_MS - 1);
    expect(alarms.pending).toBe(1);
    expect(r.tg.calls("getFile")).toHaveLength(0);
    alarms.advanceBy(1);
    await r.botSays(echoes);
    const messages = await userMessages(r);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.text).toBe("three shots of the bug");
    expect(messages[0]!.attachments.map((a) => a.size)).toEqual([3000, 4000, 5000]);
  });

  it("a message after an album does not overtake it: the album closes at once and goes first", async () => {
    const r = await start();
    const photo = (b: number) => ({ photo: [{ ...r.tg.addFile(Buffer.alloc(1000, b)), width: 10, height: 10 }], media_group_id: "g" });
    r.tg.userSaysAll([
      { chatId: OWNER.id, from: OWNER, text: "album", media: photo(1) },
      { chatId: OWNER.id, from: OWNER, text: "", media: photo(2) },
      { chatId: OWNER.id, from: OWNER, text: "after the album" },
    ]);
    await r.botSays((m) => m.text.includes("echo: after the album"));
    expect((await userMessages(r)).map((m) => [m.text, m.attachments.length])).toEqual([
      ["album", 2],
      ["after the album", 0],
    ]);
  });

  it("a voice note after an album does not overtake it either: the album is sent before the voice note is heard", async () => {
    // No transcription connection: the voice note's answer is the one "off" line. The album's
    // quiet window is never advanced here, so only the voice note can close it.
    const r = await start();
    const photo = (b: number) => ({ photo: [{ ...r.tg.addFile(Buffer.alloc(1000, b)), width: 10, height: 10 }], media_group_id: "v" });
    const note = r.tg.addFile(Buffer.alloc(100, 7));
    r.tg.userSaysAll([
      { chatId: OWNER.id, from: OWNER, text: "album first", media: photo(1) },
      { chatId: OWNER.id, from: OWNER, text: "", media: photo(2) },
      { chatId: OWNER.id, from: OWNER, text: "", media: { voice: { ...note, duration: 2, mime_type: "audio/ogg" } } },
    ]);
    await r.botSays((m) => m.text === VOICE_OFF_TEXT);
    expect((await userMessages(r)).map((m) => [m.text, m.attachments.length])).toEqual([["album first", 2]]);
  });

  acceptance(SPEC, "a Telegram file over the Bot API's download limit gets a line saying so", async () => {
    const r = await start();
    // The update says how big it is: refused before any download.
    const big = r.tg.addFile(Buffer.alloc(1), { size: 25 * MB });
    sendMedia(r, "the full dump", { document: { ...big, file_name: "dump.tar.gz", mime_type: "application/gzip" } });
    const line = await r.botSays((m) => m.text.includes("dump.tar.gz"));
    expect(line.text).toBe(
      "⚠️ “dump.tar.gz” (25 MB) is over Telegram's 20 MB limit for files a bot may download, so nothing was sent. Send it from the page or with `coffer chat send --attach`, which take files up to 50 MB.",
    );
    expect(r.tg.calls("getFile")).toHaveLength(0);
    // No size in the update: getFile refuses it, and the line says the same.
    const unsized = r.tg.addFile(Buffer.alloc(1), { size: 21 * MB });
    sendMedia(r, "", { document: { file_id: unsized.file_id, file_unique_id: unsized.file_unique_id, file_name: "video.mov", mime_type: "video/quicktime" } });
    const second = await r.botSays((m) => m.text.includes("video.mov"));
    expect(second.text).toContain("over Telegram's 20 MB limit");
    expect(second.text).toContain("coffer chat send --attach");
    // Nothing half-sent: not the caption alone, not an empty message.
    await probe(r);
    expect((await userMessages(r)).map((m) => m.text)).toEqual(["probe"]);
  });

  it("a file over the attachment cap gets the cap line; an album with one such part sends nothing", async () => {
    const r = await start({ attachmentMaxBytes: 1 * MB });
    const big = r.tg.addFile(Buffer.alloc(2 * MB, 1));
    sendMedia(r, "logs", { document: { ...big, file_name: "huge.log", mime_type: "text/plain" } });
    const line = await r.botSays((m) => m.text.includes("huge.log"));
    expect(line.text).toBe("⚠️ “huge.log” (2 MB) is over the 1 MB limit for attached files (COFFER_ATTACHMENT_MAX_MB), so nothing was sent. Send a smaller file, or put it in the workspace and name its path.");
    expect(r.tg.calls("getFile")).toHaveLength(0);
    // The size only shows while storing (no file_size): the stored part of the album goes too.
    const ok = r.tg.addFile(Buffer.alloc(1000, 2));
    const unsized = r.tg.addFile(Buffer.alloc(2 * MB, 3));
    const [, last] = r.tg.userSaysAll([
      { chatId: OWNER.id, from: OWNER, text: "two", media: { document: { ...ok, file_name: "ok.txt", mime_type: "text/plain" }, media_group_id: "g2" } },
      { chatId: OWNER.id, from: OWNER, text: "", media: { document: { file_id: unsized.file_id, file_unique_id: unsized.file_unique_id, file_name: "big.txt", mime_type: "text/plain" }, media_group_id: "g2" } },
    ]);
    await r.handled(last!.update_id);
    alarms.advanceBy(QUIET_MS);
    expect((await r.botSays((m) => m.text.includes("big.txt"))).text).toContain("over the 1 MB limit for attached files");
    await probe(r);
    expect((await userMessages(r)).map((m) => m.text)).toEqual(["probe"]);
    expect(await attachmentCount(r)).toBe(0);
  });

  it("a failed download and a stalled one each get a line, and nothing is sent", async () => {
    const r = await start();
    r.tg.dropNext("file", 1);
    sendMedia(r, "see attached", { document: { ...r.tg.addFile(Buffer.alloc(5000, 1)), file_name: "cut.pdf", mime_type: "application/pdf" } });
    expect((await r.botSays((m) => m.text.includes("cut.pdf"))).text).toBe(
      "⚠️ “cut.pdf” could not be fetched from Telegram (the download failed or stalled), so nothing was sent. Please send it again.",
    );
    // Stalled: headers and half the bytes, then silence; the stall watch gives up.
    r.tg.hangNext("file", 1);
    sendMedia(r, "", { document: { ...r.tg.addFile(Buffer.alloc(5000, 2)), file_name: "slow.pdf", mime_type: "application/pdf" } });
    await r.tg.waitFor((f) => f.calls("file").length === 2);
    alarms.advanceBy(STALL_MS);
    expect((await r.botSays((m) => m.text.includes("slow.pdf"))).text).toContain("could not be fetched from Telegram");
    await probe(r);
    expect((await userMessages(r)).map((m) => m.text)).toEqual(["probe"]);
    expect(await attachmentCount(r)).toBe(0);
  });

  it("a photo delivered again after a crash (handled, offset not yet recorded) is neither fetched, stored nor sent twice", async () => {
    const r = await start();
    // From the poll after the one now held, none is answered, so Telegram never hears the photo
    // was handled: the crash window.
    await r.tg.waitFor((f) => f.polling());
    r.tg.hangNext("getUpdates", 1_000);
    const photo = r.tg.addFile(Buffer.alloc(900, 4));
    const id = sendMedia(r, "once", { photo: [{ ...photo, width: 30, height: 20 }] });
    await r.tg.waitFor((f) => f.chat(OWNER.id).some((m) => m.from === "bot" && m.text.includes("echo: once")) && f.calls("getUpdates").some((c) => Number(c.params.offset) === id + 1 && c.status === 0));
    await r.t.stop();
    // What a crash after the send and before the offset was recorded leaves on disk.
    const db = new Database(join(r.t.home, "coffer.db"));
    db.prepare("UPDATE channels SET cursor = ? WHERE id = ?").run(String(id), r.channelId);
    db.close();
    r.tg.heal();
    const firstPoll = r.tg.sent.length;
    restarted = await startTestDaemon({ home: r.t.home, ...FAST_CHANNEL, ...channelOptions(r.tg), alarms });
    const again = { ...r, t: restarted };
    await probe(again);
    // Telegram did offer the photo again (the test is not vacuous)…
    expect(Number(r.tg.sent.slice(firstPoll).find((c) => c.method === "getUpdates")!.params.offset)).toBe(id);
    // …and it was fetched once, stored once, sent once.
    expect(r.tg.calls("getFile")).toHaveLength(1);
    expect((await userMessages(again)).map((m) => [m.text, m.attachments.length])).toEqual([
      ["once", 1],
      ["probe", 0],
    ]);
    expect(await attachmentCount(again)).toBe(1);
    expect(r.tg.chat(OWNER.id).filter((m) => m.text.includes("echo: once"))).toHaveLength(1);
    // The first daemon is stopped: only the fake and the data dir are left to clean up.
    await r.tg.close();
    rig = undefined;
  });

  it("a photo whose download a stop cut short is fetched and sent after the restart, not lost", async () => {
    const r = await start();
    r.tg.hangNext("file", 1);
    const id = sendMedia(r, "cut by the stop", { photo: [{ ...r.tg.addFile(Buffer.alloc(5000, 6)), width: 30, height: 20 }] });
    await r.tg.waitFor((f) => f.calls("file").length === 1);
    await r.t.stop();
    const firstPoll = r.tg.sent.length;
    restarted = await startTestDaemon({ home: r.t.home, ...FAST_CHANNEL, ...channelOptions(r.tg), alarms });
    const again = { ...r, t: restarted };
    await again.botSays((m) => m.text.includes("echo: cut by the stop"));
    // Not recorded as handled: the restarted channel asked for it again.
    expect(Number(r.tg.sent.slice(firstPoll).find((c) => c.method === "getUpdates")!.params.offset)).toBe(id);
    expect((await userMessages(again)).map((m) => [m.text, m.attachments.map((a) => a.size)])).toEqual([["cut by the stop", [5000]]]);
    await r.tg.close();
    rig = undefined;
  });

  it("an album cut short by a restart inside its quiet window is sent after the restart, once", async () => {
    const r = await start();
    const part = (b: number, caption: string) => ({ chatId: OWNER.id, from: OWNER, text: caption, media: { photo: [{ ...r.tg.addFile(Buffer.alloc(600 + b, b)), width: 10, height: 10 }], media_group_id: "cut" } });
    const [, last] = r.tg.userSaysAll([part(1, "before the restart"), part(2, "")]);
    await r.handled(last!.update_id);
    // The daemon goes down before the album was quiet long enough; Telegram has the parts confirmed.
    await r.t.stop();
    const later = new ManualAlarmClock(Date.now());
    restarted = await startTestDaemon({ home: r.t.home, ...FAST_CHANNEL, ...channelOptions(r.tg), alarms: later, channelTimings: { albumQuietMs: QUIET_MS } });
    await r.tg.waitFor((f) => f.polling());
    expect(later.pending).toBe(1);
    later.advanceBy(QUIET_MS);
    const again = { ...r, t: restarted };
    await again.botSays(echoes);
    await probe(again);
    expect((await userMessages(again)).map((m) => [m.text, m.attachments.map((a) => a.size)])).toEqual([
      ["before the restart", [601, 602]],
      ["probe", []],
    ]);
    await r.tg.close();
    rig = undefined;
  });

  it("a photo sent while a turn runs is queued with its file, and the phone is told", async () => {
    const r = await start();
    await r.handled(r.say(script({ gate: "first" }, { text: "first done" })));
    sendMedia(r, "second, with a photo", { photo: [{ ...r.tg.addFile(Buffer.alloc(700, 9)), width: 10, height: 10 }] });
    await r.botSays((m) => m.text.startsWith("⏳ Queued"));
    r.t.scripted.gates.open("first");
    await r.botSays((m) => m.text.includes("echo: second, with a photo"));
    const [, second] = await userMessages(r);
    expect(second!.attachments).toMatchObject([{ size: 700 }]);
  });
});

/** Attachments the daemon describes (Settings → Data's count): refused files leave none behind. */
async function attachmentCount(r: ChannelRig): Promise<number> {
  return ((await r.t.api.get("/system/stats")).body as any).attachments.count;
}

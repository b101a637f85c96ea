/**
 * A file the agent shares reaches the phone: after the reply's text, an image as a photo (≤ 10 MB),
 * anything else (or a bigger image) as a document (≤ 50 MB), and a file over the Bot API's upload
 * limit as one line saying where to open it. Real daemon and SQLite, the fake Bot API over real
 * HTTP (multipart uploads), the scripted agent; the tool runs as the gateway runs it for the
 * conversation. Through the outbox, so a send cut off by a restart goes out once after it.
 */
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChatEvent } from "@coffer/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { startChannelRig, FAST_CHANNEL, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const MB = 1024 * 1024;

let rig: ChannelRig | null = null;
let restarted: TestDaemon | null = null;
afterEach(async () => {
  await restarted?.close();
  restarted = null;
  await rig?.close();
  rig = null;
});

/** The phone starts a turn that waits on `gate`; resolves with its conversation once it streams. */
async function phoneTurn(r: ChannelRig, gate: string, text: string): Promise<string> {
  const list = await r.t.subscribeList();
  r.say(script({ text }, { gate }));
  const created = await list.waitFor((e: any) => (e.type === "conversation_created" || e.type === "conversation_updated") && e.conversation.running);
  list.close();
  const id = (created.event as any).conversation.id as string;
  const sub = await r.t.subscribe(id);
  await sub.waitFor((e: ChatEvent) => e.type === "text_delta");
  sub.close();
  return id;
}

/** coffer__share_file as the gateway runs it for this conversation's agent. */
async function share(t: TestDaemon, conversationId: string, path: string, caption?: string): Promise<void> {
  const outcome = await t.daemon.builtinTools.get("coffer__share_file")!.run(
    { path, ...(caption ? { caption } : {}) },
    { caller: "test", principal: { kind: "agent", agent: "scripted", conversationId } },
  );
  if (!outcome.ok) throw new Error(outcome.error);
}

describe("telegram: files the agent shares", () => {
  test("after the reply's text: an image as a photo with its caption, other files and big images as documents, a file over 50 MB as one line", async () => {
    rig = await startChannelRig({ attachmentMaxBytes: 70 * MB });
    const ws = rig.t.workspace;
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "chart.png"), PNG_1X1);
    writeFileSync(join(ws, "report.pdf"), "%PDF-1.4 the report");
    // Sparse files: the size is what counts here, not the bytes.
    writeFileSync(join(ws, "scan.png"), "");
    truncateSync(join(ws, "scan.png"), 12 * MB);
    writeFileSync(join(ws, "dump.zip"), "");
    truncateSync(join(ws, "dump.zip"), 62 * MB);

    const id = await phoneTurn(rig, "tg-share", "Here are your files.");
    await share(rig.t, id, "chart.png", "the chart");
    await share(rig.t, id, "report.pdf");
    await share(rig.t, id, "scan.png");
    await share(rig.t, id, "dump.zip");
    rig.t.scripted.gates.open("tg-share");

    await rig.botSays((m) => m.text.includes("too large for Telegram"));
    const tail = rig.botMessages().slice(-5);
    expect(tail.map((m) => [m.text, m.file?.kind ?? null, m.file?.name ?? null])).toEqual([
      ["Here are your files.", null, null],
      ["the chart", "photo", "chart.png"],
      ["", "document", "report.pdf"],
      ["", "document", "scan.png"],
      ["📎 dump.zip (62 MB) is too large for Telegram — open it on the page.", null, null],
    ]);
    expect(tail[1]!.file!.bytes.equals(PNG_1X1)).toBe(true);
    expect(tail[2]!.file!.bytes.toString()).toBe("%PDF-1.4 the report");
    expect(rig.tg.calls("sendPhoto", { ok: true })).toHaveLength(1);
    expect(rig.tg.calls("sendDocument", { ok: true })).toHaveLength(2);
  }, 60_000);

  test("a photo the Bot API could not take before a restart goes out exactly once after it", async () => {
    rig = await startChannelRig();
    const ws = rig.t.workspace;
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "chart.png"), PNG_1X1);
    const id = await phoneTurn(rig, "tg-restart", "Chart attached.");
    await share(rig.t, id, "chart.png");
    // Telegram is down for uploads: the photo waits in the outbox, retried, not dropped.
    rig.tg.failAll("sendPhoto", { status: 502, description: "Bad Gateway" });
    rig.t.scripted.gates.open("tg-restart");
    await rig.botSays((m) => m.text === "Chart attached.");
    await rig.tg.waitFor((f) => f.calls("sendPhoto").length >= 2);
    const home = rig.t.home;
    await rig.t.stop();
    rig.tg.heal();
    restarted = await startTestDaemon({ ...FAST_CHANNEL, home, telegram: { apiRoot: rig.tg.apiRoot, pollTimeoutSeconds: 5 } });
    await rig.botSays((m) => m.file?.name === "chart.png");
    // The channel runs on: a later message is answered, and the photo was not sent again.
    const next = rig.say("after");
    await rig.handled(next);
    await rig.botSays((m) => m.text.includes("after"));
    expect(rig.botMessages().filter((m) => m.file)).toHaveLength(1);
    expect(rig.tg.calls("sendPhoto", { ok: true })).toHaveLength(1);
    expect(rig.botMessages().map((m) => m.from === "bot" && m.text).filter((t) => t === "Chart attached.")).toHaveLength(1);
  }, 60_000);
});

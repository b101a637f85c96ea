/**
 * An image from the phone reaches the model: the REAL `claude` CLI against the fake Messages server,
 * a Telegram channel against the fake Bot API, all on 127.0.0.1. What the fake model sees is what
 * the model would see: the photo as an image block of the owner's message.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import { FakeTelegram } from "../fakes/fake-telegram.js";
import { BOT, FAST_CHANNEL, OWNER, attachChannelRig, channelOptions, type ChannelRig } from "../support/channel-rig.js";

describe("an image from Telegram reaches Claude Code", () => {
  let tg: FakeTelegram;
  let h: AgentHarness<"claude_code">;
  let rig: ChannelRig;
  beforeAll(async () => {
    tg = await FakeTelegram.start();
    tg.addBot(BOT);
    h = await startAgentHarness("claude_code", { daemon: { ...FAST_CHANNEL, ...channelOptions(tg) } });
    rig = await attachChannelRig(tg, h.daemon, { defaultAgent: "claude_code" });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await tg?.close();
  });

  /** Resolves once the phone shows `n` model replies (the fake answers each turn once). */
  const replies = (n: number) => tg.waitFor(() => rig.botMessages().filter((m) => m.text.startsWith("Fake reply to:")).length >= n);

  /** The image blocks of every request the fake model server received. */
  function imageBlocks(): Record<string, any>[] {
    const bodies = h.fake.requests.map((r) => JSON.parse(r.raw) as { messages: { content: unknown }[] });
    return bodies.flatMap((b) => b.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : []))).filter((b) => b.type === "image");
  }

  it(
    "a photo (Telegram's JPEG) and a PNG sent as a file each arrive as an image block",
    async () => {
      // Telegram re-encodes every photo as JPEG; a screenshot sent "as a file" keeps its PNG bytes.
      const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } }).jpeg().toBuffer();
      const png = await sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 1 } } }).png().toBuffer();
      const photo = tg.addFile(jpeg, { path: "photos/file_1.jpg" });
      tg.userSays({ chatId: OWNER.id, from: OWNER, text: "what colour is this?", media: { photo: [{ ...photo, width: 64, height: 48 }] } });
      await replies(1);
      const doc = tg.addFile(png, { path: "documents/shot.png" });
      tg.userSays({ chatId: OWNER.id, from: OWNER, text: "and this screenshot?", media: { document: { ...doc, file_name: "shot.png", mime_type: "image/png" } } });
      await replies(2);
      // The caption is the message's text, beside its image.
      expect(h.fake.requests[0]!.raw).toContain("what colour is this?");
      const sources = imageBlocks().map((b) => b.source as { type: string; media_type: string; data: string });
      // Each later request repeats the history: the two images, each its own bytes.
      expect(sources).toContainEqual({ type: "base64", media_type: "image/jpeg", data: jpeg.toString("base64") });
      expect(sources).toContainEqual({ type: "base64", media_type: "image/png", data: png.toString("base64") });
    },
    120_000,
  );
});

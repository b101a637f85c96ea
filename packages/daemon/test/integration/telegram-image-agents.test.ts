/**
 * An image from the phone reaches the model: the REAL `claude` and `codex` CLIs against the fake
 * model servers, a Telegram channel against the fake Bot API, all on 127.0.0.1. What the fake
 * model sees is what the model would see: the photo as an image of the owner's message.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import { FakeTelegram } from "../fakes/fake-telegram.js";
import { BOT, FAST_CHANNEL, OWNER, attachChannelRig, channelOptions, type ChannelRig } from "../support/channel-rig.js";

/** Per agent: how its fake model server's reply starts, and the images (media type, base64 bytes) it received. */
const AGENTS = {
  claude_code: {
    reply: "Fake reply to:",
    images: (h: AgentHarness<"claude_code">) =>
      h.fake.requests
        .flatMap((r) => (JSON.parse(r.raw) as { messages: { content: unknown }[] }).messages)
        .flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : []))
        .filter((b) => b.type === "image")
        .map((b) => ({ mediaType: b.source.media_type as string, data: b.source.data as string })),
  },
  codex: {
    reply: "Echo:",
    images: (h: AgentHarness<"codex">) =>
      h.fake.requests
        .flatMap((r) => r.input.flatMap((item) => (Array.isArray((item as any).content) ? ((item as any).content as Record<string, unknown>[]) : [])))
        .filter((p) => p.type === "input_image")
        .map((p) => {
          const [, mediaType = "", data = ""] = /^data:([^;]+);base64,(.*)$/s.exec(String(p.image_url)) ?? [];
          return { mediaType, data };
        }),
  },
} as const;

for (const agent of ["claude_code", "codex"] as const) {
  describe(`an image from Telegram reaches ${agent}`, () => {
    let tg: FakeTelegram;
    let h: AgentHarness<typeof agent>;
    let rig: ChannelRig;
    beforeAll(async () => {
      tg = await FakeTelegram.start();
      tg.addBot(BOT);
      h = await startAgentHarness(agent, { daemon: { ...FAST_CHANNEL, ...channelOptions(tg) } });
      rig = await attachChannelRig(tg, h.daemon, { defaultAgent: agent });
    }, 60_000);
    afterAll(async () => {
      await h?.close();
      await tg?.close();
    });

    /** Resolves once the phone shows `n` model replies (the fake answers each turn once). */
    const replies = (n: number) => tg.waitFor(() => rig.botMessages().filter((m) => m.text.startsWith(AGENTS[agent].reply)).length >= n);

    it(
      "a photo (Telegram's JPEG) and a PNG sent as a file each arrive as an image",
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
        expect(JSON.stringify(h.fake.requests[0])).toContain("what colour is this?");
        const images = (AGENTS[agent].images as (x: typeof h) => { mediaType: string; data: string }[])(h);
        // The very bytes the phone sent (small images go as they are, never re-encoded).
        expect(images).toContainEqual({ mediaType: "image/jpeg", data: jpeg.toString("base64") });
        expect(images).toContainEqual({ mediaType: "image/png", data: png.toString("base64") });
      },
      120_000,
    );
  });
}

/**
 * Files reach the agents natively: the REAL `claude` and `codex app-server` against the fake model
 * servers on 127.0.0.1; what the fake model sees is what the model would see.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { tinyPdf } from "../support/tiny-pdf.js";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import type { FakeFor } from "../fakes/agent-rig.js";

const SPEC = "025-attachments";
/** A valid 1×1 PNG: Codex decodes a local image before it sends it, so the bytes must be real. */
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

async function upload(h: AgentHarness<"codex" | "claude_code">, name: string, mediaType: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`${h.daemon.daemon.url}/api/v1/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.daemon.daemon.token}`, "content-type": mediaType },
    body: bytes,
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

/** Sends a message carrying one image and waits for the turn to end well; returns the ids. */
async function sendImage(h: AgentHarness<"codex" | "claude_code">): Promise<{ id: string; image: string }> {
  const id = await h.conversation();
  const image = await upload(h, "dot.png", "image/png", PNG_1X1);
  const sub = await h.daemon.subscribe(id);
  const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: "what is in this picture?", attachment_ids: [image] });
  expect(ack.status).toBe(202);
  const done = await sub.waitFor(isTerminalEvent);
  expect(done.event.type).toBe("turn_done");
  sub.close();
  return { id, image };
}

/**
 * Sends a message carrying a real (hand-built) PDF whose text is the directive `ask(path)` — the
 * fake model then has the real CLI read the copy at `path` — and waits for the turn to end well.
 */
async function sendPdf<K extends "codex" | "claude_code">(h: AgentHarness<K>, ask: (path: string) => string) {
  const id = await h.conversation();
  const pdf = tinyPdf("quarterly figures: 42 apples");
  const file = await upload(h, "figures.pdf", "application/pdf", pdf);
  const path = join(h.daemon.home, "agent-files", id, file, "figures.pdf");
  const before = h.fake.requests.length;
  const sub = await h.daemon.subscribe(id);
  const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: ask(path), attachment_ids: [file] });
  expect(ack.status).toBe(202);
  expect((await sub.waitFor(isTerminalEvent)).event.type).toBe("turn_done");
  sub.close();
  // Outside the owner's working directory: the agent reads its own read-only copy.
  expect(path.startsWith(h.workDir)).toBe(false);
  return { pdf, path, requests: h.fake.requests.slice(before) as FakeFor[K]["requests"] };
}

describe("images reach Codex natively", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 30_000);
  afterAll(() => h?.close());

  acceptance(
    SPEC,
    "an image reaches Codex as a local image input the fake model server sees",
    async () => {
      const { id, image } = await sendImage(h);
      const parts = h.fake.requests.flatMap((r) => r.input.flatMap((item) => (Array.isArray((item as any).content) ? ((item as any).content as Record<string, unknown>[]) : [])));
      const images = parts.filter((p) => p.type === "input_image");
      expect(images).toHaveLength(1);
      expect(String(images[0]!.image_url).startsWith("data:image/png;base64,")).toBe(true);
      // The text still names the read-only copy, for an agent that reads it as a file.
      expect(h.fake.requests.at(-1)!.userText).toContain(`agent-files/${id}/${image}/dot.png`);
    },
    30_000,
  );

  acceptance(
    SPEC,
    "a PDF reaches the agent as a file it can read, outside the owner's working directory",
    async () => {
      // The real codex runs a command on the named copy; its output (the text the PDF draws) is the tool's output.
      const { pdf, path, requests } = await sendPdf(h, (p) => `USE_TOOL cat ${p}`);
      expect(requests[0]!.userText).toContain(`- figures.pdf (application/pdf, ${pdf.length} bytes): ${path}`);
      const outputs = requests.flatMap((r) => r.input.filter((item) => item.type === "function_call_output").map((item) => JSON.stringify(item.output)));
      expect(outputs.some((o) => o.includes("(quarterly figures: 42 apples) Tj"))).toBe(true);
    },
    60_000,
  );

  acceptance(
    SPEC,
    "a 20 MB photo is downscaled before it reaches the agent and the next turn still works",
    async () => {
      // Noise does not compress: 3000×2400 of it as an uncompressed PNG is over 20 MB.
      const raw = { width: 3000, height: 2400, channels: 3 } as const;
      const photo = await sharp(randomBytes(raw.width * raw.height * raw.channels), { raw }).png({ compressionLevel: 0 }).toBuffer();
      expect(photo.length).toBeGreaterThan(20_000_000);
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      const from = h.fake.requests.length;
      const sent = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: "look", attachment_ids: [await upload(h, "noise.png", "image/png", photo)] });
      expect(sent.status).toBe(202);
      expect((await sub.waitFor(isTerminalEvent)).event.type).toBe("turn_done");
      const inputs = h.fake.requests[from]!.input.flatMap((item) => (item.content ?? []) as Record<string, any>[]).filter((p) => p.type === "input_image");
      expect(inputs).toHaveLength(1);
      const url = String(inputs[0]!.image_url);
      expect(url.length).toBeLessThanOrEqual(5 * 1024 * 1024);
      const fitted = await sharp(Buffer.from(url.slice(url.indexOf(",") + 1), "base64")).metadata();
      expect(Math.max(fitted.width!, fitted.height!)).toBeLessThanOrEqual(1568);
      // Codex was handed the fitted copy, not the 20 MB original; and its thread still runs.
      const next = sub.events.length;
      await h.send(id, "and now?");
      expect((await sub.waitFor(isTerminalEvent, next)).event.type).toBe("turn_done");
      sub.close();
    },
    90_000,
  );
});

describe("images reach Claude Code natively", () => {
  let h: AgentHarness<"claude_code">;
  beforeAll(async () => {
    h = await startAgentHarness("claude_code");
  }, 30_000);
  afterAll(() => h?.close());

  acceptance(
    SPEC,
    "an image reaches Claude Code as an image block the fake model server sees",
    async () => {
      const { id, image } = await sendImage(h);
      const bodies = h.fake.requests.map((r) => JSON.parse(r.raw) as { messages: { role: string; content: unknown }[] });
      const blocks = bodies.flatMap((b) => b.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : [])));
      const images = blocks.filter((b) => b.type === "image");
      expect(images.length).toBeGreaterThanOrEqual(1);
      expect(images[0]!.source).toEqual({ type: "base64", media_type: "image/png", data: PNG_1X1.toString("base64") });
      expect(h.fake.requests.at(-1)!.raw).toContain(`agent-files/${id}/${image}/dot.png`);
    },
    60_000,
  );

  acceptance(
    SPEC,
    "a PDF reaches the agent as a file it can read, outside the owner's working directory",
    async () => {
      // The real claude Reads the named copy (the fake's CALL directive).
      const { pdf, path, requests: mine } = await sendPdf(h, (p) => `CALL: Read ${JSON.stringify({ file_path: p })}`);
      expect(mine[0]!.raw).toContain(path);
      const results = mine.flatMap((r) => r.toolResults);
      // The real CLI's Read of a PDF: a line naming the file it read at its agent-files path, and
      // the document itself as a block the model reads — these very bytes, text and all.
      expect(results.some((r) => r.text.includes(`PDF file read: ${path}`))).toBe(true);
      const documents = mine
        .flatMap((r) => (JSON.parse(r.raw) as { messages: { content: unknown }[] }).messages)
        .flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : []))
        .filter((b) => b.type === "tool_result" && Array.isArray(b.content))
        .flatMap((b) => b.content as Record<string, any>[])
        .filter((c) => c.type === "document");
      expect(documents.length).toBeGreaterThanOrEqual(1);
      expect(documents[0]!.source.media_type).toBe("application/pdf");
      const read = Buffer.from(documents[0]!.source.data as string, "base64");
      expect(read.equals(pdf)).toBe(true);
      expect(read.toString("latin1")).toContain("(quarterly figures: 42 apples) Tj");
    },
    60_000,
  );

  acceptance(
    SPEC,
    "a 20 MB photo is downscaled before it reaches the agent and the next turn still works",
    async () => {
      // Random noise does not compress: a 3000×2400 PNG of it is over 20 MB, a photo's worst case.
      const noise = await sharp(randomBytes(3000 * 2400 * 3), { raw: { width: 3000, height: 2400, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
      expect(noise.length).toBeGreaterThan(20_000_000);
      const id = await h.conversation();
      const photo = await upload(h, "noise.png", "image/png", noise);
      const before = h.fake.requests.length;
      const sub = await h.daemon.subscribe(id);
      expect((await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: "look", attachment_ids: [photo] })).status).toBe(202);
      expect((await sub.waitFor(isTerminalEvent)).event.type).toBe("turn_done");
      const first = JSON.parse(h.fake.requests[before]!.raw) as { messages: { content: unknown }[] };
      const blocks = first.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : [])).filter((b) => b.type === "image");
      expect(blocks).toHaveLength(1);
      const data = Buffer.from(blocks[0]!.source.data as string, "base64");
      expect(blocks[0]!.source.data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
      const seen = await sharp(data).metadata();
      expect(Math.max(seen.width!, seen.height!)).toBeLessThanOrEqual(1568);
      expect(existsSync(join(h.daemon.home, "agent-files", id, photo, "for-model", "image.jpg"))).toBe(true);
      // The session is not poisoned: the next turn runs.
      const mark = sub.events.length;
      await h.send(id, "and now?");
      expect((await sub.waitFor(isTerminalEvent, mark)).event.type).toBe("turn_done");
      sub.close();
    },
    90_000,
  );
});

/**
 * An image from the CLI reaches the model as an image (issue 25, "Done when"): the built
 * `coffer chat send --attach shot.png` against an in-process daemon whose agent is the REAL
 * `claude` or `codex` CLI, talking to the fake model server on 127.0.0.1 — the fake sees an
 * Anthropic image block / a Responses input_image carrying the file's bytes.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAgentHarness, type AgentHarness } from "../../daemon/test/fakes/agent-harness.js";
import { cofferAgainst } from "./support/run-cli.js";

/** A valid 1×1 PNG: Codex decodes a local image before it sends it, so the bytes must be real. */
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const files = mkdtempSync(join(tmpdir(), "coffer-cli-image-"));
const shot = join(files, "shot.png");
writeFileSync(shot, PNG_1X1);

describe("an image from the CLI reaches Claude Code as an image block", () => {
  let h: AgentHarness<"claude_code">;
  beforeAll(async () => {
    h = await startAgentHarness("claude_code");
  }, 30_000);
  afterAll(() => h?.close());

  test("coffer chat send --attach shot.png: the fake Messages API sees the image block", async () => {
    const id = await h.conversation();
    const before = h.fake.requests.length;
    const r = await cofferAgainst(h.daemon, ["chat", "send", id, "--attach", shot, "what is this?"]);
    expect(r.code, r.stderr).toBe(0);
    const mine = h.fake.requests.slice(before).map((q) => JSON.parse(q.raw) as { messages: { content: unknown }[] });
    const blocks = mine.flatMap((b) => b.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : [])));
    const images = blocks.filter((b) => b.type === "image");
    expect(images.length).toBeGreaterThanOrEqual(1);
    expect(images[0]!.source).toEqual({ type: "base64", media_type: "image/png", data: PNG_1X1.toString("base64") });
  }, 60_000);
});

describe("an image from the CLI reaches Codex as a local image input", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 30_000);
  afterAll(() => h?.close());

  test("coffer chat send --attach shot.png: the fake Responses API sees the input_image", async () => {
    const id = await h.conversation();
    const before = h.fake.requests.length;
    const r = await cofferAgainst(h.daemon, ["chat", "send", id, "--attach", shot, "what is this?"]);
    expect(r.code, r.stderr).toBe(0);
    const parts = h.fake.requests.slice(before).flatMap((q) => q.input.flatMap((item) => item.content ?? [])) as Record<string, unknown>[];
    const images = parts.filter((p) => p.type === "input_image");
    expect(images).toHaveLength(1);
    expect(images[0]!.image_url).toBe(`data:image/png;base64,${PNG_1X1.toString("base64")}`);
  }, 60_000);
});

/**
 * Files reach Codex natively: the REAL `codex app-server` against the fake Responses server on
 * 127.0.0.1; what the fake model sees is what the model would see.
 */
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";

/** A valid 1×1 PNG: Codex decodes a local image before it sends it, so the bytes must be real. */
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

let h: AgentHarness<"codex">;
beforeAll(async () => {
  h = await startAgentHarness("codex");
}, 30_000);
afterAll(() => h?.close());

async function upload(name: string, mediaType: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`${h.daemon.daemon.url}/api/v1/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.daemon.daemon.token}`, "content-type": mediaType },
    body: bytes,
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

/** Every content part of every input item the fake model received, flattened. */
function contentParts(): Record<string, unknown>[] {
  return h.fake.requests.flatMap((r) => r.input.flatMap((item) => (Array.isArray((item as any).content) ? ((item as any).content as Record<string, unknown>[]) : [])));
}

describe("images reach Codex natively", () => {
  acceptance(
    "025-attachments",
    "an image reaches Codex as a local image input the fake model server sees",
    async () => {
      const id = await h.conversation();
      const image = await upload("dot.png", "image/png", PNG_1X1);
      const sub = await h.daemon.subscribe(id);
      const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: "what is in this picture?", attachment_ids: [image] });
      expect(ack.status).toBe(202);
      const done = await sub.waitFor(isTerminalEvent);
      expect(done.event.type).toBe("turn_done");
      sub.close();
      const images = contentParts().filter((p) => p.type === "input_image");
      expect(images).toHaveLength(1);
      const url = String(images[0]!.image_url);
      expect(url.startsWith("data:image/png;base64,")).toBe(true);
      // The text still names the read-only copy, for an agent that reads it as a file.
      expect(h.fake.requests.at(-1)!.userText).toContain(`agent-files/${id}/${image}/dot.png`);
    },
    30_000,
  );
});

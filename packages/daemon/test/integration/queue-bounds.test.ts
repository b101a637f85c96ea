/**
 * Issue 11, finding 7: the pending queue is capped per conversation (409 QUEUE_FULL, nothing
 * already queued lost) and `queue_changed` frames stay small — each text is a preview; the
 * whole text stays on the server and an id-only PUT keeps it. Real daemon, real SSE bytes.
 */
import { MAX_MESSAGE_CHARS, PENDING_PREVIEW_CHARS } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const send = (id: string, text: string, clientId?: string) =>
  t.api.post(`/chat/conversations/${id}/messages`, clientId ? { text, client_id: clientId } : { text });
const pending = async (id: string) => (await t.api.get(`/chat/conversations/${id}/pending`)).body as { pending: { id: string; text: string }[]; paused: boolean };

/** A conversation whose turn hangs, so everything sent next queues. */
async function busy() {
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  await send(id, script({ text: "working " }, { hang: true }));
  await sub.waitFor((e) => e.type === "text_delta");
  return { id, sub };
}

describe("the pending queue is bounded", { timeout: 60_000 }, () => {
  test("the 101st queued message is 409 QUEUE_FULL and the first 100 are all kept, in order", async () => {
    const { id, sub } = await busy();
    const texts = Array.from({ length: 100 }, (_, i) => `queued ${i + 1}`);
    for (const [i, text] of texts.entries()) expect((await send(id, text, `c${i}`)).body).toMatchObject({ queued: true });
    const full = await send(id, "one too many");
    expect(full.status).toBe(409);
    expect(full.body.error).toMatchObject({ code: "QUEUE_FULL", details: { limit: 100, conversation_id: id } });
    // A retry of a message already queued is still its ack, not a refusal.
    expect((await send(id, "queued 1", "c0")).body).toMatchObject({ queued: true });
    // A PUT growing the queue past the cap is refused the same way, and changes nothing.
    const grown = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [...(await pending(id)).pending.map(({ id: pid }) => ({ id: pid })), { text: "extra" }], resume: false });
    expect(grown.body.error?.code).toBe("QUEUE_FULL");
    expect((await pending(id)).pending.map((p) => p.text)).toEqual(texts);
    sub.close();
    await t.api.delete(`/chat/conversations/${id}`);
  });

  test("queue_changed frames stay small with 32 KB items; an id-only PUT keeps every whole text", async () => {
    const { id, sub } = await busy();
    const long = (i: number) => `${String(i).padStart(3, "0")}${"é".repeat(MAX_MESSAGE_CHARS - 3)}`;
    const before = sub.bytes;
    for (let i = 0; i < 100; i += 1) await send(id, long(i));
    const last = await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 100);
    const frame = Buffer.byteLength(JSON.stringify(last.event));
    // 100 previews of 200 characters (2 bytes each here) plus ids: well under 64 KB (the whole queue would be 6.4 MB).
    expect(frame).toBeLessThan(64 * 1024);
    // Everything the subscriber received for 100 sends: 100 frames of at most that size (was ~330 MB).
    expect(sub.bytes - before).toBeLessThan(100 * 64 * 1024);
    const item = (last.event as any).pending[7];
    expect(item).toMatchObject({ truncated: true, length: MAX_MESSAGE_CHARS });
    expect(item.text).toBe(long(7).slice(0, PENDING_PREVIEW_CHARS));

    // What the page sends for previews (and the CLI for every item): ids only, here reordered and one dropped.
    const ids = (last.event as any).pending.map((p: any) => p.id) as string[];
    const reordered = [ids[7]!, ...ids.slice(0, 7), ...ids.slice(8, 99)];
    const put = await t.api.put(`/chat/conversations/${id}/pending`, { pending: reordered.map((pid) => ({ id: pid })), resume: false });
    expect(put.status).toBe(200);
    const after = await pending(id);
    expect(after.pending.map((p) => p.id)).toEqual(reordered);
    expect(after.pending[0]!.text).toBe(long(7));
    expect(after.pending.every((p) => p.text.length === MAX_MESSAGE_CHARS)).toBe(true);
    // An id-only item that is no longer queued is dropped, never invented; an item needs an id or a text.
    expect((await t.api.put(`/chat/conversations/${id}/pending`, { pending: [{ id: ids[8] }, { id: "gone" }], resume: false })).body.pending).toHaveLength(1);
    expect((await t.api.put(`/chat/conversations/${id}/pending`, { pending: [{}] })).status).toBe(422);
    sub.close();
    await t.api.delete(`/chat/conversations/${id}`);
  });
});

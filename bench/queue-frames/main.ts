/**
 * bench/queue-frames — the bytes one live subscriber receives while 1,000 messages are queued
 * one by one behind a running turn (real daemon in-process, scripted agent, real SSE over
 * 127.0.0.1), beside what the old frames would have been in the same run: the whole queue,
 * every text whole, in every `queue_changed` (issue 11, finding 7).
 *
 * The old figure is computed, not received: for each frame received, the bytes of the frame
 * with the full texts (known here, since this script sent them) instead of the previews.
 *
 * Run: npm run build && npm run bench:queue-frames   (env QUEUE_BENCH_MESSAGES, QUEUE_BENCH_CHARS)
 */
import type { QueueChangedEvent } from "@coffer/protocol";
import { script } from "../../packages/daemon/test/support/scripted-agent.js";
import { startTestDaemon } from "../../packages/daemon/test/support/test-daemon.js";
import { ratio, table } from "../support/stats.js";

const MESSAGES = Number(process.env.QUEUE_BENCH_MESSAGES ?? 1000);
const CHARS = Number(process.env.QUEUE_BENCH_CHARS ?? 4096);

const t = await startTestDaemon({ queueMax: MESSAGES });
try {
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "working " }, { hang: true }) });
  await sub.waitFor((e) => e.type === "text_delta");

  const fullText = new Map<string, string>();
  const start = sub.bytes;
  const firstFrame = sub.events.length;
  const t0 = performance.now();
  for (let i = 0; i < MESSAGES; i++) {
    const text = `${String(i).padStart(5, "0")} ${"x".repeat(CHARS - 6)}`;
    const ack = await t.api.post(`/chat/conversations/${id}/messages`, { text });
    if (ack.status !== 202) throw new Error(`send ${i} answered ${ack.status}: ${JSON.stringify(ack.body)}`);
    fullText.set(ack.body.pending_id as string, text);
  }
  await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === MESSAGES);
  const seconds = (performance.now() - t0) / 1000;
  const received = sub.bytes - start;

  // The same frames as the old daemon built them: every item's whole text.
  let old = received;
  let frames = 0;
  let largest = 0;
  for (const { event } of sub.events.slice(firstFrame)) {
    if (event.type !== "queue_changed") continue;
    frames += 1;
    const now = Buffer.byteLength(JSON.stringify(event));
    largest = Math.max(largest, now);
    const whole: QueueChangedEvent = { ...event, pending: event.pending.map((p) => ({ ...p, text: fullText.get(p.id) ?? p.text })) };
    old += Buffer.byteLength(JSON.stringify({ type: whole.type, pending: whole.pending.map(({ id: pid, text }) => ({ id: pid, text })), paused: whole.paused })) - now;
  }
  sub.close();

  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`queue-frames: ${MESSAGES} messages of ${CHARS} characters queued one by one in ${seconds.toFixed(1)} s; ${frames} queue_changed frames`);
  console.log(
    table([
      ["", "bytes to one subscriber", "largest frame"],
      ["previews (now)", mb(received), `${(largest / 1024).toFixed(1)} KB`],
      ["whole texts (old, same frames)", mb(old), `${((MESSAGES * (CHARS + 40)) / 1024 / 1024).toFixed(1)} MB`],
    ]),
  );
  console.log(`old / now: ${ratio(old, received)}`);
} finally {
  await t.close();
}

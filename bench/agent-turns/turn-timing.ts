import { ApiClient, SseSubscription } from "../../packages/daemon/test/support/http-client.js";

/** A daemon the bench drives over its real HTTP API. */
export interface BenchDaemon {
  readonly url: string;
  readonly token: string;
  readonly api: ApiClient;
}

/** POST → first `text_delta` at an SSE subscriber; then waits for the turn to end so runs do not overlap. */
export async function timeFirstDelta(d: BenchDaemon, conversationId: string, text: string): Promise<number> {
  const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${conversationId}/events`);
  const from = sub.events.length;
  const t0 = performance.now();
  const ack = await d.api.post(`/chat/conversations/${conversationId}/messages`, { text });
  if (ack.status !== 202) throw new Error(`send failed: ${JSON.stringify(ack.body)}`);
  const first = await sub.waitFor((e) => e.type === "text_delta" || e.type === "turn_error", from);
  const elapsed = performance.now() - t0;
  if (first.event.type === "turn_error") throw new Error(`turn failed: ${JSON.stringify(first.event)}`);
  await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error", from);
  sub.close();
  return elapsed;
}

export function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** One turn seen by two subscribers: the sender's page and a second watcher (another tab, the phone). */
export interface WatchedTurn {
  /** POST → first `text_delta` at the sender's stream. */
  readonly firstText: number;
  /** POST → first `text_delta` at the second watcher's stream. */
  readonly watcher: number;
}

export async function timeWatchedTurn(d: BenchDaemon, conversationId: string, text: string): Promise<WatchedTurn> {
  const path = `/chat/conversations/${conversationId}/events`;
  const [sender, second] = await Promise.all([SseSubscription.open(d.url, d.token, path), SseSubscription.open(d.url, d.token, path)]);
  const from = [sender.events.length, second.events.length] as const;
  const isFirst = (e: { type: string }) => e.type === "text_delta" || e.type === "turn_error";
  const t0 = performance.now();
  const ack = await d.api.post(`/chat/conversations/${conversationId}/messages`, { text });
  if (ack.status !== 202) throw new Error(`send failed: ${JSON.stringify(ack.body)}`);
  const [a, b] = await Promise.all([
    sender.waitFor(isFirst, from[0]).then((f) => ({ f, at: performance.now() })),
    second.waitFor(isFirst, from[1]).then((f) => ({ f, at: performance.now() })),
  ]);
  if (a.f.event.type === "turn_error") throw new Error(`turn failed: ${JSON.stringify(a.f.event)}`);
  await sender.waitFor((e) => e.type === "turn_done" || e.type === "turn_error", from[0]);
  sender.close();
  second.close();
  return { firstText: a.at - t0, watcher: b.at - t0 };
}

/** Median and spread (min–max) of samples, for the printed table. */
export function spread(samples: readonly number[]): { p50: number; min: number; max: number } {
  return { p50: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

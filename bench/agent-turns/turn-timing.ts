import { ApiClient, SseSubscription } from "../../packages/daemon/test/support/http-client.js";

/** A daemon the bench drives over its real HTTP API. */
export interface BenchDaemon {
  readonly url: string;
  readonly token: string;
  readonly api: ApiClient;
}

/** One agent's turn-start figures: each entry in main.ts is one agent. */
export interface AgentTurnBench {
  readonly name: string;
  start(): Promise<AgentTurnTarget>;
}

export interface AgentTurnTarget {
  /** A turn that pays the agent's start-up (no warm process for its conversation). */
  coldTurn(run: number): Promise<number>;
  /** The next turn of a live conversation. */
  warmTurn(run: number): Promise<number>;
  close(): Promise<void>;
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

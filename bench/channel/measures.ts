import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ChatEvent } from "@coffer/protocol";
import type { SseSubscription } from "../../packages/daemon/test/support/http-client.js";
import { script } from "../../packages/daemon/test/support/scripted-agent.js";
import { within } from "../support/child.js";
import { wallClockMs, type DriverRig } from "./driver.js";

/**
 * What bench/channel measures, on any platform's driver (driver.ts): phone message → turn_start
 * beside the fake's own hand-over, edits per window during a long turn, a burst of messages
 * while a turn is held and while turns are instant, RSS over many round trips.
 */

export const BURST = 100;
/** Sends before the measured ones: the first turns warm the agent path and the JIT. */
const WARMUP = 5;
const REFUSAL = "10 messages are already waiting";

/** How many messages one acknowledgement covers: "⏳ Queued (3 waiting)" / "⏳ Queued 7 messages (…)" and the refusal line. */
function ackCounts(text: string): { queued: number; refused: number } {
  let queued = 0;
  let refused = 0;
  for (const line of text.split("\n")) {
    const q = /^⏳ Queued (?:(\d+) messages )?\(/.exec(line);
    if (q) queued += Number(q[1] ?? 1);
    if (line.startsWith(REFUSAL)) refused += Number(/so (\d+) messages were not queued/.exec(line)?.[1] ?? 1);
  }
  return { queued, refused };
}

/** Resolves with the wall-clock time the matching frame was parsed off the SSE stream. */
function arrival(sub: SseSubscription, match: (e: ChatEvent) => boolean, from: number): Promise<number> {
  return sub.waitFor(match, from).then(() => wallClockMs());
}

function userText(e: ChatEvent): string {
  if (e.type !== "turn_start") return "";
  return e.user_message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
}

export async function activeConversation(rig: DriverRig): Promise<string> {
  const list = (await rig.t.api.get("/chat/conversations")).body.conversations as { id: string; channel_binding: unknown }[];
  return list.find((c) => c.channel_binding)!.id;
}

/** One phone message, answered: the bot's reply has reached the chat and the next poll is held. */
export async function roundTrip(rig: DriverRig, text: string): Promise<void> {
  const before = rig.botMessages().length;
  rig.say(text);
  await rig.waitFor(() => rig.botMessages().slice(before).some((m) => m.text.endsWith(text)));
  await rig.listening();
}

export interface Latency {
  readonly toTurnStart: number[];
  readonly floor: number[];
  readonly beyond: number[];
  /** The page's way in, same daemon, same run: POST /messages → turn_start on an unbound conversation. */
  readonly desktop: number[];
}

async function desktopSend(rig: DriverRig, sub: SseSubscription, conversationId: string, text: string): Promise<number> {
  const from = sub.events.length;
  const started = arrival(sub, (e) => e.type === "turn_start", from);
  const t0 = wallClockMs();
  const ack = await rig.t.api.post(`/chat/conversations/${conversationId}/messages`, { text });
  if (ack.status !== 202) throw new Error(`desktop send answered ${ack.status}`);
  const at = await within(10_000, started, "desktop turn_start");
  await within(10_000, sub.waitFor((e) => e.type === "turn_done", from), "desktop turn_done");
  return at - t0;
}

export async function latency(rig: DriverRig, sub: SseSubscription, sends: number): Promise<Latency> {
  const out: Latency = { toTurnStart: [], floor: [], beyond: [], desktop: [] };
  const desktopId = await rig.t.conversation();
  const desktopSub = await rig.t.subscribe(desktopId);
  for (let i = 0; i < sends + WARMUP; i++) {
    const desktop = await desktopSend(rig, desktopSub, desktopId, `desk ${i}`);
    await rig.listening();
    const from = sub.events.length;
    const before = rig.botMessages().length;
    const started = arrival(sub, (e) => e.type === "turn_start", from);
    const t0 = wallClockMs();
    const text = `ping ${String(i).padStart(3, "0")}`;
    rig.say(text);
    const floor = rig.handOverSince(t0);
    const at = await within(10_000, started, "turn_start");
    await within(10_000, sub.waitFor((e) => e.type === "turn_done", from), "turn_done");
    await within(10_000, rig.waitFor(() => rig.botMessages().slice(before).some((m) => m.text.endsWith(text))), "the answer on the phone");
    if (i < WARMUP) continue;
    out.desktop.push(desktop);
    out.toTurnStart.push(at - t0);
    out.floor.push(floor);
    out.beyond.push(at - t0 - floor);
  }
  desktopSub.close();
  return out;
}

export interface Edits {
  readonly deltas: number;
  readonly spanMs: number;
  readonly edits: number;
  readonly maxInWindow: number;
  readonly calls: Record<string, number>;
}

export async function edits(rig: DriverRig, sub: SseSubscription, deltas: number, windowMs: number): Promise<Edits> {
  const tool = (id: string, name: string, command: string) => ({ tool: { id, name, input: { command }, output: "ok" } });
  const from = sub.events.length;
  const mark = rig.mark();
  const editsBefore = rig.editTimes().length;
  // 1,000 deltas at 80/s: a turn of ≥ 12 s, several edit windows long (fewer for a quick run).
  const first = Math.round(deltas * 0.4);
  rig.say(
    script(
      tool("t1", "Bash", "npm test"),
      { repeat: first, text: "x", perSecond: 80 },
      tool("t2", "Bash", "git status"),
      { repeat: deltas - first, text: "x", perSecond: 80 },
      tool("t3", "Bash", "ls"),
      { text: "FINAL" },
    ),
  );
  const start = await within(30_000, arrival(sub, (e) => e.type === "turn_start", from), "long turn_start");
  const done = await within(60_000, arrival(sub, (e) => e.type === "turn_done", from), "long turn_done");
  // The turn's platform work ends when the answer is on the phone and the progress message is gone.
  await within(30_000, rig.waitFor(() => rig.botMessages().some((m) => m.text.endsWith("FINAL")) && !rig.botMessages().some((m) => m.text.startsWith("⏳ Working"))), "answer delivered");
  const seen = sub.events.slice(from).filter((e) => e.event.type === "text_delta").length;
  const calls = rig.callsSince(mark);
  const times = rig.editTimes().slice(editsBefore);
  return { deltas: seen, spanMs: done - start, edits: times.length, maxInWindow: rig.maxEditsInWindow(windowMs), calls };
}

export interface Burst {
  readonly oneBatch: boolean;
  readonly queued: number;
  readonly queuedReplies: number;
  readonly refused: number;
  /** Bot messages the burst got back (acknowledgements are one per chat per poll batch). */
  readonly replyMessages: number;
  readonly started: number;
  readonly accounted: boolean;
  readonly ranOnceInOrder: boolean;
  readonly ran: number;
}

/** `size` messages at once (one poll answer, a run of gateway frames); `held`: while a gated turn runs. */
export async function burst(rig: DriverRig, sub: SseSubscription, conversationId: string, held: boolean, size = BURST): Promise<Burst> {
  const { t } = rig;
  const label = held ? "held" : "instant";
  const gate = `burst-${label}`;
  const from = sub.events.length;
  if (held) {
    rig.say(script({ text: "working" }, { gate }, { text: " done" }));
    await within(10_000, sub.waitFor((e) => e.type === "text_delta", from), "held turn running");
  }
  const botBefore = rig.botMessages().length;
  const turnsBefore = t.scripted.turns.length;
  const texts = Array.from({ length: size }, (_, i) => `${label} ${String(i).padStart(3, "0")}`);
  const { batched: oneBatch } = await within(30_000, rig.sayAll(texts), "burst handled");

  const userMessages = async () =>
    ((await t.api.get(`/chat/conversations/${conversationId}/messages?limit=1000`)).body.messages as { role: string; content: { text?: string }[] }[])
      .filter((m) => m.role === "user")
      .map((m) => m.content.map((b) => b.text ?? "").join(""))
      .filter((x) => texts.includes(x));
  // Read while the held turn still holds the queue: what was queued and what started.
  const pending = ((await t.api.get(`/chat/conversations/${conversationId}/pending`)).body.pending as { text: string }[]).map((p) => p.text);
  const startedByThen = (await userMessages()).length;
  // Every reply went into the durable outbox while its update was handled: wait until it is empty.
  await within(60_000, outboxEmpty(rig), "burst replies delivered");
  const replies = rig.botMessages().slice(botBefore);
  // One acknowledgement per chat per poll batch: each reply may count several messages.
  const acks = replies.map((m) => ackCounts(m.text));
  const refused = acks.reduce((n, a) => n + a.refused, 0);
  const queuedReplies = acks.reduce((n, a) => n + a.queued, 0);

  if (held) t.scripted.gates.open(gate);
  // Whatever was not refused must run, once each (after the held turn's own start when held).
  const turns = size - refused + (held ? 1 : 0);
  const count = (type: string) => sub.events.slice(0, from).filter((e) => e.event.type === type).length;
  // A lost message shows as a turn that never comes: reported (FAIL), not thrown.
  const drained = await within(60_000, sub.waitForCount((e) => e.type === "turn_done", count("turn_done") + turns), "burst turns done").then(
    () => true,
    () => false,
  );
  const starts = sub.events.slice(from).filter((e) => e.event.type === "turn_start");
  const order = starts.map((s) => userText(s.event)).filter((x) => texts.includes(x));
  const agentSaw = t.scripted.turns.slice(turnsBefore).map((r) => r.text).filter((x) => texts.includes(x));
  const thread = await userMessages();
  const accepted = texts.filter((x) => thread.includes(x));
  const ranOnceInOrder =
    drained &&
    JSON.stringify(order) === JSON.stringify(accepted) && JSON.stringify(agentSaw) === JSON.stringify(accepted) && JSON.stringify(thread) === JSON.stringify(accepted);
  // Started at once = accepted without being counted in a "⏳ Queued" reply.
  const started = held ? startedByThen : accepted.length - queuedReplies;
  const queued = held ? pending.length : queuedReplies;
  const accounted = queued + refused + started === size && accepted.length + refused === size && (!held || queuedReplies === pending.length);
  return { oneBatch, queued, queuedReplies, refused, started, accounted, ranOnceInOrder, ran: accepted.length, replyMessages: replies.length };
}

/** A full collection before each reading, so the heap figure is what is still reachable. */
function collect(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Resolves once the channel's outbox is empty, checked after each call the fake receives. */
export async function outboxEmpty(rig: DriverRig): Promise<void> {
  for (;;) {
    const counts = (await rig.t.api.get(`/channels/${rig.channelId}`)).body.counts as { outbox: number };
    if (counts.outbox === 0) return;
    await rig.changed();
  }
}

export async function memory(rig: DriverRig, roundTrips: number): Promise<{ before: number; after: number; heapBefore: number; heapAfter: number; seconds: number }> {
  await within(60_000, outboxEmpty(rig), "earlier replies delivered");
  collect();
  const before = process.memoryUsage();
  const t0 = performance.now();
  for (let i = 0; i < roundTrips; i++) await within(10_000, roundTrip(rig, `trip ${String(i).padStart(4, "0")}`), `round trip ${i}`);
  const seconds = (performance.now() - t0) / 1000;
  await within(60_000, outboxEmpty(rig), "round-trip replies delivered");
  collect();
  const after = process.memoryUsage();
  return { before: before.rss, after: after.rss, heapBefore: before.heapUsed, heapAfter: after.heapUsed, seconds };
}


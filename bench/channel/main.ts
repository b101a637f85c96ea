/**
 * bench/channel — the Telegram channel against our fake Bot API on 127.0.0.1: a real daemon
 * in-process (real SQLite, real HTTP, the scripted agent), the default channel timings (edit
 * interval 1500 ms, default grammY retries; the rig's 5 s long poll).
 *   (1) phone message → turn_start on the conversation's live bus (real SSE, as a page reads it),
 *       beside the FLOOR: the fake's own hand-over (userSays → the held getUpdates answered)
 *       and, for reference, the page's POST /messages → turn_start in the same run
 *   (2) a 1,000-delta turn over ≥ 10 s with tool steps: edits per chat, most edits in any 1.5 s,
 *       every Telegram call during the turn
 *   (3) 100 phone messages in one getUpdates batch, while a turn is held and while turns are instant:
 *       queued / refused / started, none lost, the queue runs each once in order
 *   (4) RSS before/after 1,000 phone round trips (this process: daemon + fake + client together)
 *
 * Run: npm run build && npm run bench:channel   (env CHANNEL_SENDS, CHANNEL_ROUND_TRIPS)
 */
import { cpus, loadavg } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ChatEvent } from "@coffer/protocol";
import { OWNER, startChannelRig, type ChannelRig } from "../../packages/daemon/test/support/channel-rig.js";
import type { SseSubscription } from "../../packages/daemon/test/support/http-client.js";
import { script } from "../../packages/daemon/test/support/scripted-agent.js";
import { within } from "../support/child.js";
import { ms, summarize, table, verdict } from "../support/stats.js";

const SENDS = Number(process.env.CHANNEL_SENDS ?? 50);
const ROUND_TRIPS = Number(process.env.CHANNEL_ROUND_TRIPS ?? 1000);
const EDIT_INTERVAL_MS = 1500;
const BURST = 100;
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
const wallClockMs = () => performance.timeOrigin + performance.now();

/** Resolves with the wall-clock time the matching frame was parsed off the SSE stream. */
function arrival(sub: SseSubscription, match: (e: ChatEvent) => boolean, from: number): Promise<number> {
  return sub.waitFor(match, from).then(() => wallClockMs());
}

function userText(e: ChatEvent): string {
  if (e.type !== "turn_start") return "";
  return e.user_message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
}

async function activeConversation(rig: ChannelRig): Promise<string> {
  const list = (await rig.t.api.get("/chat/conversations")).body.conversations as { id: string; channel_binding: unknown }[];
  return list.find((c) => c.channel_binding)!.id;
}

/** One phone message, answered: the bot's reply has reached the chat and the next poll is held. */
async function roundTrip(rig: ChannelRig, text: string): Promise<void> {
  const before = rig.botMessages().length;
  rig.say(text);
  await rig.tg.waitFor((f) => rig.botMessages().slice(before).some((m) => m.text.endsWith(text)) && f.polling());
}

interface Latency {
  readonly toTurnStart: number[];
  readonly floor: number[];
  readonly beyond: number[];
  /** The page's way in, same daemon, same run: POST /messages → turn_start on an unbound conversation. */
  readonly desktop: number[];
}

async function desktopSend(rig: ChannelRig, sub: SseSubscription, conversationId: string, text: string): Promise<number> {
  const from = sub.events.length;
  const started = arrival(sub, (e) => e.type === "turn_start", from);
  const t0 = wallClockMs();
  const ack = await rig.t.api.post(`/chat/conversations/${conversationId}/messages`, { text });
  if (ack.status !== 202) throw new Error(`desktop send answered ${ack.status}`);
  const at = await within(10_000, started, "desktop turn_start");
  await within(10_000, sub.waitFor((e) => e.type === "turn_done", from), "desktop turn_done");
  return at - t0;
}

async function latency(rig: ChannelRig, sub: SseSubscription): Promise<Latency> {
  const out: Latency = { toTurnStart: [], floor: [], beyond: [], desktop: [] };
  const desktopId = await rig.t.conversation();
  const desktopSub = await rig.t.subscribe(desktopId);
  for (let i = 0; i < SENDS + 5; i++) {
    const desktop = await desktopSend(rig, desktopSub, desktopId, `desk ${i}`);
    await rig.tg.waitFor((f) => f.polling());
    const from = sub.events.length;
    const before = rig.botMessages().length;
    const started = arrival(sub, (e) => e.type === "turn_start", from);
    const t0 = wallClockMs();
    const text = `ping ${String(i).padStart(3, "0")}`;
    rig.say(text);
    // The held poll answers inside userSays: its answer time is the fake's own hand-over.
    const poll = rig.tg.calls("getUpdates").find((c) => c.answeredAt >= t0);
    const at = await within(10_000, started, "turn_start");
    await within(10_000, sub.waitFor((e) => e.type === "turn_done", from), "turn_done");
    await within(10_000, rig.tg.waitFor(() => rig.botMessages().slice(before).some((m) => m.text.endsWith(text))), "the answer on the phone");
    if (i < 5) continue;
    out.desktop.push(desktop);
    const floor = poll ? poll.answeredAt - t0 : Number.NaN;
    out.toTurnStart.push(at - t0);
    out.floor.push(floor);
    out.beyond.push(at - t0 - floor);
  }
  desktopSub.close();
  return out;
}

interface Edits {
  readonly deltas: number;
  readonly spanMs: number;
  readonly edits: number;
  readonly maxInWindow: number;
  readonly calls: Record<string, number>;
}

async function edits(rig: ChannelRig, sub: SseSubscription): Promise<Edits> {
  const { tg } = rig;
  const tool = (id: string, name: string, command: string) => ({ tool: { id, name, input: { command }, output: "ok" } });
  const from = sub.events.length;
  const sentBefore = tg.sent.length;
  const editsBefore = tg.editTimes(OWNER.id).length;
  rig.say(
    script(
      tool("t1", "Bash", "npm test"),
      { repeat: 400, text: "x", perSecond: 80 },
      tool("t2", "Bash", "git status"),
      { repeat: 600, text: "x", perSecond: 80 },
      tool("t3", "Bash", "ls"),
      { text: "FINAL" },
    ),
  );
  const start = await within(30_000, arrival(sub, (e) => e.type === "turn_start", from), "long turn_start");
  const done = await within(60_000, arrival(sub, (e) => e.type === "turn_done", from), "long turn_done");
  // The turn's Telegram work ends when the answer is on the phone and the progress message is gone.
  await within(30_000, tg.waitFor(() => rig.botMessages().some((m) => m.text.endsWith("FINAL")) && !rig.botMessages().some((m) => m.text.startsWith("⏳ Working"))), "answer delivered");
  const deltas = sub.events.slice(from).filter((e) => e.event.type === "text_delta").length;
  const calls: Record<string, number> = {};
  for (const c of tg.sent.slice(sentBefore)) calls[c.method] = (calls[c.method] ?? 0) + 1;
  const times = tg.editTimes(OWNER.id).slice(editsBefore);
  return { deltas, spanMs: done - start, edits: times.length, maxInWindow: tg.maxEditsInWindow(OWNER.id, EDIT_INTERVAL_MS), calls };
}

interface Burst {
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

/** 100 messages in one getUpdates answer; `held`: while a gated turn runs. */
async function burst(rig: ChannelRig, sub: SseSubscription, conversationId: string, held: boolean): Promise<Burst> {
  const { t, tg } = rig;
  const label = held ? "held" : "instant";
  const gate = `burst-${label}`;
  const from = sub.events.length;
  if (held) {
    rig.say(script({ text: "working" }, { gate }, { text: " done" }));
    await within(10_000, sub.waitFor((e) => e.type === "text_delta", from), "held turn running");
  }
  const botBefore = rig.botMessages().length;
  const turnsBefore = t.scripted.turns.length;
  const texts = Array.from({ length: BURST }, (_, i) => `${label} ${String(i).padStart(3, "0")}`);
  const updates = tg.userSaysAll(texts.map((text) => ({ chatId: OWNER.id, from: OWNER, text })));
  const first = updates[0]!.update_id;
  const last = updates.at(-1)!.update_id;
  await within(30_000, rig.handled(last), "burst handled");
  // One batch: no poll confirmed part of the burst (an offset strictly inside it).
  const oneBatch = !tg.calls("getUpdates").some((c) => Number(c.params.offset ?? 0) > first && Number(c.params.offset ?? 0) <= last);

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
  const turns = BURST - refused + (held ? 1 : 0);
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
  const accounted = queued + refused + started === BURST && accepted.length + refused === BURST && (!held || queuedReplies === pending.length);
  return { oneBatch, queued, queuedReplies, refused, started, accounted, ranOnceInOrder, ran: accepted.length, replyMessages: replies.length };
}

/** A full collection before each reading, so the heap figure is what is still reachable. */
function collect(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Resolves once the channel's outbox is empty, checked after each call the fake receives. */
async function outboxEmpty(rig: ChannelRig): Promise<void> {
  for (;;) {
    const counts = (await rig.t.api.get(`/channels/${rig.channelId}`)).body.counts as { outbox: number };
    if (counts.outbox === 0) return;
    await new Promise((resolve) => rig.tg.once("change", resolve));
  }
}

async function memory(rig: ChannelRig): Promise<{ before: number; after: number; heapBefore: number; heapAfter: number; seconds: number }> {
  await within(60_000, outboxEmpty(rig), "earlier replies delivered");
  collect();
  const before = process.memoryUsage();
  const t0 = performance.now();
  for (let i = 0; i < ROUND_TRIPS; i++) await within(10_000, roundTrip(rig, `trip ${String(i).padStart(4, "0")}`), `round trip ${i}`);
  const seconds = (performance.now() - t0) / 1000;
  await within(60_000, outboxEmpty(rig), "round-trip replies delivered");
  collect();
  const after = process.memoryUsage();
  return { before: before.rss, after: after.rss, heapBefore: before.heapUsed, heapAfter: after.heapUsed, seconds };
}

async function main(): Promise<void> {
  console.log(`bench/channel  (fake Bot API on 127.0.0.1, default channel timings, edit interval ${EDIT_INTERVAL_MS} ms; ${SENDS} sends)`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${cpus().length} cores`);
  // Empty channelTimings and no telegramRetry: the daemon's defaults, not the test rig's fast ones.
  const rig = await startChannelRig({ channelTimings: {}, telegramRetry: undefined });
  try {
    await roundTrip(rig, "hello");
    const conversationId = await activeConversation(rig);
    const sub = await rig.t.subscribe(conversationId);

    const lat = await latency(rig, sub);
    const ed = await edits(rig, sub);
    const held = await burst(rig, sub, conversationId, true);
    const instant = await burst(rig, sub, conversationId, false);
    const mem = await memory(rig);
    sub.close();

    const total = summarize(lat.toTurnStart);
    const floor = summarize(lat.floor);
    const beyond = summarize(lat.beyond);
    const desk = summarize(lat.desktop);
    const latOk = beyond.p95 <= 50;
    const editOk = ed.maxInWindow <= 1;
    const heldOk = held.oneBatch && held.accounted && held.ranOnceInOrder;
    const instantOk = instant.oneBatch && instant.accounted && instant.ranOnceInOrder;
    const callText = Object.entries(ed.calls).map(([m, n]) => `${m} ${n}`).join(", ");
    const nonPoll = Object.entries(ed.calls).filter(([m]) => m !== "getUpdates").reduce((s, [, n]) => s + n, 0);
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `\n${table([
        ["measure", "channel", "floor", "beyond the floor", "bar", "verdict"],
        ["(1) phone → turn_start p50", ms(total.p50), ms(floor.p50), ms(beyond.p50), "", ""],
        ["(1) phone → turn_start p95", ms(total.p95), ms(floor.p95), ms(beyond.p95), "beyond ≤ 50 ms", verdict(latOk)],
        ["(1) phone → turn_start max", ms(total.max), ms(floor.max), ms(beyond.max), "", ""],
        ["(1') desktop POST → turn_start p50 / p95 (reference)", `${ms(desk.p50)} / ${ms(desk.p95)}`, "", "", "(not a bar)", ""],
        ["(2) edits in the chat", `${ed.edits} over ${(ed.spanMs / 1000).toFixed(1)} s (${ed.deltas} deltas)`, `${Math.floor(ed.spanMs / EDIT_INTERVAL_MS)} intervals`, "", "", ""],
        ["(2) most edits in any 1.5 s", String(ed.maxInWindow), "", "", "≤ 1", verdict(editOk)],
        ["(2) Telegram calls during the turn", `${nonPoll} + polls`, "", "", "", ""],
        [
          "(3) burst while held: queued / refused / started",
          `${held.queued} / ${held.refused} / ${held.started}`,
          "",
          "",
          "sum 100, one batch, each once in order",
          verdict(heldOk),
        ],
        [
          "(3) burst, instant turns: ran / refused",
          `${instant.ran} / ${instant.refused} (${instant.started} started at once, ${instant.queued} queued)`,
          "",
          "",
          "sum 100, one batch, each once in order",
          verdict(instantOk),
        ],
        ["(4) RSS before → after round trips", `${mb(mem.before)} → ${mb(mem.after)}`, "", `${mem.after >= mem.before ? "+" : ""}${mb(mem.after - mem.before)}`, "(not a bar)", ""],
      ])}`,
    );
    console.log(`\nload average at end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    console.log(`(2) calls by method during the turn: ${callText}`);
    console.log(
      `(3) held: one getUpdates batch ${held.oneBatch}; ${held.queuedReplies} acknowledged as queued and ${held.refused} as refused in ${held.replyMessages} bot message(s); ${held.ran} ran after release, each once in order: ${held.ranOnceInOrder}`,
    );
    console.log(`(3) instant: one getUpdates batch ${instant.oneBatch}; each accepted ran once in order: ${instant.ranOnceInOrder}`);
    console.log(
      `(4) ${ROUND_TRIPS} round trips in ${mem.seconds.toFixed(1)} s; heap after a full GC ${mb(mem.heapBefore)} → ${mb(mem.heapAfter)} (one process: daemon, fake and client)`,
    );
    process.exitCode = latOk && editOk && heldOk && instantOk ? 0 : 1;
  } finally {
    await rig.close();
  }
}

await main();

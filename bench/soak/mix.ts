/**
 * The soak's steady mix: independent loops that each do one kind of work again and again until
 * `stop` is aborted. Every loop keeps a bounded number of conversations alive (it creates a new
 * one now and then and deletes its oldest), so the daemon's steady state is flat by design and
 * any growth is the daemon's own. Each loop counts what it did and what failed.
 *
 * Pauses between rounds are pacing (a load generator's think time), not waits for a result:
 * every result is waited for on the signal that publishes it (a frame, a bot message).
 */
import type { ChatEvent } from "@coffer/protocol";
import type { FakeTelegram } from "../../packages/daemon/test/fakes/fake-telegram.js";
import { OWNER } from "../../packages/daemon/test/support/channel-rig.js";
import { ApiClient, SseSubscription } from "../../packages/daemon/test/support/http-client.js";
import { script } from "../../packages/daemon/test/support/scripted-agent.js";
import { within } from "../support/child.js";

export interface Daemon {
  readonly url: string;
  readonly token: string;
  readonly api: ApiClient;
}

export interface LoopCounts {
  done: number;
  failed: number;
  lastError: string | null;
}

export type Counts = Record<string, LoopCounts>;

const TURN_TIMEOUT_MS = 120_000;
/** Conversations each loop keeps; every ROTATE rounds it starts a new one and drops its oldest. */
const KEEP = 3;
const ROTATE = 5;

const ended = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";

function pace(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop.aborted) return resolve();
    // The abort listener goes with the pause: thousands of rounds must not pile them up on `stop`.
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      stop.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    stop.addEventListener("abort", onAbort, { once: true });
  });
}

/** Runs `round` until stopped, counting; an error is counted and the loop goes on. */
async function loop(name: string, counts: Counts, stop: AbortSignal, gapMs: number, round: (i: number) => Promise<void>): Promise<void> {
  const c: LoopCounts = (counts[name] = { done: 0, failed: 0, lastError: null });
  for (let i = 0; !stop.aborted; i++) {
    try {
      await round(i);
      c.done += 1;
    } catch (err) {
      if (stop.aborted) break;
      c.failed += 1;
      c.lastError = String(err instanceof Error ? err.message : err).slice(0, 300);
    }
    await pace(gapMs, stop);
  }
}

/** A loop's conversations: the newest gets the work; past KEEP the oldest is deleted. */
class Rotation {
  private readonly ids: string[] = [];
  constructor(
    private readonly d: Daemon,
    private readonly create: () => Promise<string>,
  ) {}

  async current(round: number): Promise<string> {
    if (!this.ids.length || round % ROTATE === 0) {
      this.ids.push(await this.create());
      while (this.ids.length > KEEP) {
        const old = this.ids.shift()!;
        const res = await this.d.api.delete(`/chat/conversations/${old}`);
        if (res.status !== 204) throw new Error(`delete answered ${res.status}`);
      }
    }
    return this.ids.at(-1)!;
  }

  get live(): readonly string[] {
    return this.ids;
  }
}

async function createConversation(d: Daemon, agent: string, config: Record<string, unknown> = {}): Promise<string> {
  const res = await d.api.post("/chat/conversations", { agent_key: agent, agent_config: config });
  if (res.status !== 201) throw new Error(`create ${agent} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** One turn: a watcher opens, the message goes in, the watcher sees it end, and leaves. */
async function turn(d: Daemon, id: string, text: string): Promise<void> {
  const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
  try {
    const from = sub.events.length;
    const res = await d.api.post(`/chat/conversations/${id}/messages`, { text });
    if (res.status !== 202) throw new Error(`send answered ${res.status}: ${JSON.stringify(res.body)}`);
    const end = await within(TURN_TIMEOUT_MS, sub.waitFor(ended, from), `turn on ${id}`);
    if (end.event.type === "turn_error") throw new Error(`turn_error: ${(end.event as { message?: string }).message ?? ""}`);
  } finally {
    sub.close();
  }
}

/** Turns on a real CLI (claude or codex against its fake model server). */
export function agentTurns(d: Daemon, agent: "claude_code" | "codex", counts: Counts, stop: AbortSignal, gapMs: number): Promise<void> {
  const config = agent === "claude_code" ? { model: "claude-sonnet-4-5" } : {};
  const rotation = new Rotation(d, () => createConversation(d, agent, config));
  return loop(agent, counts, stop, gapMs, async (i) => turn(d, await rotation.current(i), `soak round ${i}: say something short`));
}

/**
 * Queue edits on the scripted agent: a turn of ~4 s runs while three messages queue behind it;
 * one is taken for editing (the queue holds), saved with new text, another is dropped; the
 * queue then runs what is left.
 */
export function queueEdits(d: Daemon, counts: Counts, stop: AbortSignal, gapMs: number): Promise<void> {
  const rotation = new Rotation(d, () => createConversation(d, "scripted"));
  return loop("queue-edits", counts, stop, gapMs, async (i) => {
    const id = await rotation.current(i);
    const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
    try {
      const from = sub.events.length;
      await d.api.post(`/chat/conversations/${id}/messages`, { text: script({ repeat: 40, text: "·", perSecond: 10 }) });
      await within(TURN_TIMEOUT_MS, sub.waitFor((e) => e.type === "turn_start", from), "the held turn's start");
      for (const word of ["one", "two", "three"]) await d.api.post(`/chat/conversations/${id}/messages`, { text: `queued ${word} ${i}` });
      const pending = (await d.api.get(`/chat/conversations/${id}/pending`)).body.pending as { id: string; text: string }[];
      if (pending.length !== 3) throw new Error(`expected 3 queued, found ${pending.length}`);
      const hold = await d.api.post(`/chat/conversations/${id}/pending/${pending[1]!.id}/hold`, {});
      if (hold.status !== 200) throw new Error(`hold answered ${hold.status}`);
      const saved = await d.api.put(`/chat/conversations/${id}/pending`, {
        pending: [{ id: pending[0]!.id }, { id: pending[1]!.id, text: `edited ${i}` }],
        seen: pending.map((p) => p.id),
        hold_id: hold.body.hold_id,
      });
      if (saved.status !== 200) throw new Error(`save answered ${saved.status}: ${JSON.stringify(saved.body)}`);
      // The held turn and the two that are left.
      await within(TURN_TIMEOUT_MS, sub.waitForCount(ended, 3), "the queue to run");
    } finally {
      sub.close();
    }
  });
}

/** Watchers coming and going: the conversation list and a conversation's stream, opened then closed. */
export function watchers(d: Daemon, counts: Counts, stop: AbortSignal, gapMs: number, conversations: () => readonly string[]): Promise<void> {
  return loop("watchers", counts, stop, gapMs, async (i) => {
    const ids = conversations();
    const path = i % 2 === 0 || !ids.length ? "/chat/events" : `/chat/conversations/${ids[i % ids.length]}/events`;
    // A conversation another loop deleted since the list was read answers 404: watch the list instead.
    const sub = await SseSubscription.open(d.url, d.token, path).catch(() => SseSubscription.open(d.url, d.token, "/chat/events"));
    // It stays for a while (a tab left open), then goes: the next round opens another.
    await pace(2_000 + (i % 5) * 1_000, stop);
    sub.close();
    await sub.waitForEnd();
  });
}

/** Searches over the conversations, as the jump palette sends them. */
export function searches(d: Daemon, counts: Counts, stop: AbortSignal, gapMs: number): Promise<void> {
  const terms = ["soak", "round", "queued", "edited", "reply", "phone"];
  return loop("searches", counts, stop, gapMs, async (i) => {
    const res = await d.api.get(`/chat/conversations?q=${encodeURIComponent(terms[i % terms.length]!)}`);
    if (res.status !== 200) throw new Error(`search answered ${res.status}`);
  });
}

/** The owner's phone: a message to the bot (the fake Bot API), answered by the scripted agent; /new now and then. */
export function phoneChat(d: Daemon, tg: FakeTelegram, counts: Counts, stop: AbortSignal, gapMs: number): Promise<void> {
  const botSaid = () => tg.chat(OWNER.id).filter((m) => m.from === "bot").length;
  return loop("telegram", counts, stop, gapMs, async (i) => {
    if (i % ROTATE === 0) await dropOldPhoneConversations(d);
    const before = botSaid();
    const text = i % ROTATE === 0 ? "/new" : `phone ${i}`;
    tg.userSays({ chatId: OWNER.id, from: OWNER, text });
    const answered = tg.waitFor(() => tg.chat(OWNER.id).slice(-3).some((m) => m.from === "bot" && (text === "/new" ? m.text.startsWith("🆕") : m.text.includes(text))) && botSaid() > before);
    await within(TURN_TIMEOUT_MS, answered, `the bot's answer to ${text}`);
  });
}

/** The phone's /new leaves the previous conversation in the history: past KEEP, the oldest go. */
async function dropOldPhoneConversations(d: Daemon): Promise<void> {
  const list = (await d.api.get("/chat/conversations?limit=200")).body.conversations as { id: string; channel_binding: unknown; created_at: string }[];
  const bound = list.filter((c) => c.channel_binding).sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const c of bound.slice(0, Math.max(0, bound.length - KEEP))) await d.api.delete(`/chat/conversations/${c.id}`);
}

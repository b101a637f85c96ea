/**
 * Crash: kill -9 the daemon — with a REAL agent child process (the `codex` app-server
 * against its fake model) — at crash points picked at random (seeded; the seed is printed
 * on failure, replay with COFFER_KILL_SEED) across the turn's life: just after the send is
 * acknowledged (turn start), mid-stream around a flush, and right after a turn ends while the
 * queue advances to the next message. After every restart, for the newest cycle and every
 * earlier one: no row is left `streaming`; every text sent is there exactly once, as a user
 * message or still pending (never lost, never doubled); a surviving queue is paused; and each
 * reply holds only text the model really sent (a prefix of the fake's stream), nothing more.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent } from "@coffer/protocol";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { makeAgentRig, type AgentRig } from "../fakes/agent-rig.js";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";
import { prng } from "../support/prng.js";

const CYCLES = 6; // ~15 s a cycle on 2 cores: a daemon spawn (tsx) and a codex app-server start each
const SEED = Number(process.env.COFFER_KILL_SEED ?? Date.now() % 1_000_000_007);
const CRASH_POINTS = ["turn-start", "flush", "queue-advance"] as const;
type CrashPoint = (typeof CRASH_POINTS)[number];

let home: string;
let rig: AgentRig<"codex">;
beforeAll(async () => {
  home = await makeHome();
  rig = await makeAgentRig("codex", { fake: { slowDelayMs: 15 } });
}, 30_000);
afterAll(async () => {
  await rig?.close();
  await rm(home, { recursive: true, force: true });
});

interface Cycle {
  readonly n: number;
  readonly point: CrashPoint;
  readonly conversationId: string;
  readonly sent: string[];
}

/** A pause of a random length: the crash point itself, not a wait for something to happen. */
const jitter = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether `text` is something the fake could have streamed for `prompt` so far. */
function isPrefixOfModelOutput(prompt: string, text: string): boolean {
  if (prompt.startsWith("SLOW")) {
    const words = text.split(" ");
    const last = words.pop()!; // "" after the last complete word, or a cut word (never: deltas are whole words)
    return last === "" && words.every((w, i) => w === `w${i}`);
  }
  return `Echo: ${prompt}`.startsWith(text);
}

const textOf = (m: any) => m.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("");

test(`kill -9 at random crash points (turn start, flush, queue advance), ${CYCLES} cycles, real codex child`, async () => {
  const started = Date.now();
  const random = prng(SEED);
  const cycles: Cycle[] = [];
  const spawn = () => spawnDaemon(home, { ...rig.env, COFFER_FLUSH_INTERVAL_MS: "50", COFFER_LOG_LEVEL: "error" }, { hermetic: true });
  let d: DaemonProcess = await spawn();
  try {
    for (let n = 0; n < CYCLES; n++) {
      const point = CRASH_POINTS[Math.floor(random() * CRASH_POINTS.length)]!;
      const api = new ApiClient(d.url, d.token);
      const id = (await api.post("/chat/conversations", { agent_key: "codex" })).body.id as string;
      const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
      const cycle: Cycle = { n, point, conversationId: id, sent: [] };
      cycles.push(cycle);
      const send = async (text: string) => {
        cycle.sent.push(text);
        expect((await api.post(`/chat/conversations/${id}/messages`, { text })).status).toBe(202);
      };
      if (point === "turn-start") {
        await send(`SLOW cycle ${n}`);
        await send(`queued behind cycle ${n}`);
        await jitter(random() * 60);
      } else if (point === "flush") {
        await send(`SLOW cycle ${n}`);
        await send(`queued behind cycle ${n}`);
        await sub.waitForCount((e: ChatEvent) => e.type === "text_delta", 1 + Math.floor(random() * 12));
        await jitter(random() * 80); // the flush interval is 50 ms: land before, on and after one
      } else {
        await send(`first of cycle ${n}`);
        await send(`second of cycle ${n}`);
        await send(`third of cycle ${n}`);
        await sub.waitFor((e: ChatEvent) => e.type === "turn_done");
        await jitter(random() * 30);
      }
      d.child.kill("SIGKILL");
      expect(await d.exited).toBe("SIGKILL");
      await sub.waitForEnd();
      d = await spawn();

      const db = new Database(join(home, "coffer.db"), { readonly: true });
      expect(db.prepare("SELECT COUNT(*) AS n FROM messages WHERE status = 'streaming'").get(), `seed ${SEED}`).toEqual({ n: 0 });
      db.close();
      const api2 = new ApiClient(d.url, d.token);
      for (const c of cycles) {
        const where = `cycle ${c.n} (${c.point}), seed ${SEED}`;
        const messages = (await api2.get(`/chat/conversations/${c.conversationId}/messages`)).body.messages as any[];
        const queue = (await api2.get(`/chat/conversations/${c.conversationId}/pending`)).body;
        const users = messages.filter((m) => m.role === "user").map(textOf);
        const held = queue.pending.map((p: any) => p.text);
        // Every message sent is there exactly once, in order: run first, then still queued.
        expect([...users, ...held], where).toEqual(c.sent);
        if (held.length) expect(queue.paused, `${where}: a surviving queue waits for the owner`).toBe(true);
        // Each user message has its reply row, which holds only what the model streamed.
        expect(messages.map((m) => m.role), where).toEqual(users.flatMap(() => ["user", "assistant"]));
        for (let i = 0; i < messages.length; i += 2) {
          const reply = messages[i + 1];
          expect(["complete", "failed"], where).toContain(reply.status);
          expect(isPrefixOfModelOutput(users[i / 2]!, textOf(reply)), `${where}: "${textOf(reply)}" for "${users[i / 2]}"`).toBe(true);
          if (reply.status === "complete") expect(textOf(reply), where).toBe(reply.stop_reason === "end_turn" ? `Echo: ${users[i / 2]}` : textOf(reply));
          else expect(reply.error, where).toMatchObject({ code: "daemon_restart" });
        }
      }
    }
  } catch (err) {
    console.error(`[reliability] kill -9 failed with seed ${SEED}: replay with COFFER_KILL_SEED=${SEED}`);
    throw err;
  } finally {
    d.child.kill("SIGTERM");
    await d.exited;
  }
  const points = Object.fromEntries(CRASH_POINTS.map((p) => [p, cycles.filter((c) => c.point === p).length]));
  console.log(
    `[reliability] kill -9: ${CYCLES} cycles (seed ${SEED}; ${JSON.stringify(points)}), every earlier cycle re-checked after each restart, ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}, 300_000);

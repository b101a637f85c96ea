/**
 * Crash: kill -9 the daemon mid-turn, 20 times on one data dir. After every restart no
 * row is left `streaming`, each killed turn's flushed partial text is kept on its failed
 * row, and each queued message is still pending with its queue paused — for the newest
 * cycle and every earlier one.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { script } from "../support/scripted-agent.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";

const CYCLES = 20;

let home: string;
beforeAll(async () => {
  home = await makeHome();
});
afterAll(() => rm(home, { recursive: true, force: true }));

/** Polls the database file: the row is the signal that a flush has landed. */
async function untilRow<T>(probe: () => T | undefined, what: string, deadlineMs = 10_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no row: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Cycle {
  readonly conversationId: string;
  readonly partial: string;
  readonly queued: string;
}

test(`kill -9 mid-turn, ${CYCLES} cycles: 0 streaming rows, partial kept, queue intact and paused`, async () => {
  const started = Date.now();
  const cycles: Cycle[] = [];
  const db = () => new Database(join(home, "coffer.db"), { readonly: true });
  let d: DaemonProcess = await spawnDaemon(home, { COFFER_FLUSH_INTERVAL_MS: "50" });
  try {
    for (let n = 0; n < CYCLES; n++) {
      const api = new ApiClient(d.url, d.token);
      const id = (await api.post("/chat/conversations", { agent_key: "scripted" })).body.id as string;
      const partial = `cycle ${n} streamed ${"word ".repeat(n + 1)}`;
      const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
      await api.post(`/chat/conversations/${id}/messages`, {
        text: script(...partial.split(" ").map((w, i, all) => ({ text: i < all.length - 1 ? `${w} ` : w })), { hang: true }),
      });
      await sub.waitFor((e) => e.type === "text_delta" && partial.endsWith(e.text));
      const queued = `queued behind cycle ${n}`;
      expect((await api.post(`/chat/conversations/${id}/messages`, { text: queued })).body.queued).toBe(true);
      const file = db();
      await untilRow(
        () => file.prepare("SELECT 1 AS ok FROM messages WHERE conversation_id = ? AND status = 'streaming' AND content = ?")
          .get(id, JSON.stringify([{ type: "text", text: partial }])),
        `cycle ${n}: the whole partial flushed`,
      );
      file.close();
      cycles.push({ conversationId: id, partial, queued });

      d.child.kill("SIGKILL");
      expect(await d.exited).toBe("SIGKILL");
      await sub.waitForEnd();
      d = await spawnDaemon(home, { COFFER_FLUSH_INTERVAL_MS: "50" });

      const after = db();
      expect(after.prepare("SELECT COUNT(*) AS n FROM messages WHERE status = 'streaming'").get()).toEqual({ n: 0 });
      after.close();
      const api2 = new ApiClient(d.url, d.token);
      for (const c of cycles) {
        const messages = (await api2.get(`/chat/conversations/${c.conversationId}/messages`)).body.messages;
        expect(messages.map((m: any) => [m.role, m.status])).toEqual([["user", "complete"], ["assistant", "failed"]]);
        expect(messages[1].content).toEqual([{ type: "text", text: c.partial }]);
        const queue = (await api2.get(`/chat/conversations/${c.conversationId}/pending`)).body;
        expect(queue).toMatchObject({ paused: true, pending: [{ text: c.queued }] });
        expect(queue.pending).toHaveLength(1);
      }
    }
  } finally {
    d.child.kill("SIGTERM");
    await d.exited;
  }
  console.log(`[reliability] kill -9: ${CYCLES} cycles (${CYCLES} killed turns, ${CYCLES} queued messages re-checked after every restart) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 240_000);

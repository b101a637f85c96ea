import { rm } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { script } from "../support/scripted-agent.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";

let home: string;
beforeAll(async () => {
  home = await makeHome();
});
afterAll(() => rm(home, { recursive: true, force: true }));

async function until<T>(probe: () => T | undefined | null): Promise<T> {
  for (;;) {
    const value = probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 20)); // polling a row: the signal here is the database
  }
}

const api = (d: DaemonProcess) => new ApiClient(d.url, d.token);

acceptance("008-agent-chat", "reply survives a restart", async () => {
  let d = await spawnDaemon(home);
  const id = (await api(d).post("/chat/conversations", { agent_key: "scripted" })).body.id as string;
  const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
  await api(d).post(`/chat/conversations/${id}/messages`, { text: "remember me" });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  const before = (await api(d).get(`/chat/conversations/${id}/messages`)).body.messages;
  expect(before).toHaveLength(2);

  d.child.kill("SIGTERM");
  expect(await d.exited).toBe(0);
  d = await spawnDaemon(home);
  try {
    const after = (await api(d).get(`/chat/conversations/${id}/messages`)).body.messages;
    expect(after).toEqual(before);
    expect((await api(d).get(`/chat/conversations/${id}`)).body.title).toBe("remember me");
  } finally {
    d.child.kill("SIGTERM");
    await d.exited;
  }
});

test("a daemon killed mid-turn comes back with no streaming row, the flushed partial kept, and the queue paused", async () => {
  let d = await spawnDaemon(home, { COFFER_FLUSH_INTERVAL_MS: "50" });
  const id = (await api(d).post("/chat/conversations", { agent_key: "scripted" })).body.id as string;
  const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
  await api(d).post(`/chat/conversations/${id}/messages`, { text: script({ text: "half a thought" }, { hang: true }) });
  await sub.waitFor((e) => e.type === "text_delta");
  await api(d).post(`/chat/conversations/${id}/messages`, { text: "still waiting" });
  const db = new Database(join(home, "coffer.db"), { readonly: true });
  await until(() => db.prepare("SELECT 1 FROM messages WHERE conversation_id = ? AND status = 'streaming' AND content LIKE '%half a thought%'").get(id));
  db.close();
  d.child.kill("SIGKILL");
  await d.exited;
  await sub.waitForEnd();

  d = await spawnDaemon(home);
  try {
    const messages = (await api(d).get(`/chat/conversations/${id}/messages`)).body.messages;
    expect(messages.map((m: any) => m.status)).toEqual(["complete", "failed"]);
    expect(messages[1].content).toEqual([{ type: "text", text: "half a thought" }]);
    expect(messages[1].error).toMatchObject({ code: "daemon_restart" });
    const queue = (await api(d).get(`/chat/conversations/${id}/pending`)).body;
    expect(queue).toMatchObject({ paused: true, pending: [{ text: "still waiting" }] });
    // Resuming runs the survivor.
    const watch = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
    await api(d).put(`/chat/conversations/${id}/pending`, { pending: queue.pending });
    await watch.waitFor((e) => e.type === "turn_done");
    watch.close();
  } finally {
    d.child.kill("SIGTERM");
    await d.exited;
  }
});

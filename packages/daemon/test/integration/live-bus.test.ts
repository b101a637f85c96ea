import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { phoneClientPrefix } from "../../src/application/channels/turn-relay.js";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ heartbeatMs: 100 });
});
afterAll(() => t.close());

const send = (id: string, text: string) => t.api.post(`/chat/conversations/${id}/messages`, { text });

let channelMessages = 0;
/**
 * What the Telegram channel does with an owner's message (channels/inbound.ts sends it to the
 * engine under a per-update client id; channel-runner.ts watches the conversation on the engine):
 * the same engine and bus as the page, no separate seam.
 */
async function sendFromChannel(id: string, text: string) {
  const seen: string[] = [];
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  const detach = t.daemon.turns.reads.subscribe(id, {
    deliver: (frame) => {
      seen.push(frame.event.type);
      if (isTerminalEvent(frame.event)) done();
    },
    end: () => done(),
  });
  const ack = await t.daemon.turns.queue.send(id, text, `${phoneClientPrefix("test")}${++channelMessages}`);
  return { ack, seen, ended: ended.then(detach), detach };
}

describe("the live bus", () => {
  acceptance("008-agent-chat", "observe a turn started from another surface", async () => {
    const bound = await t.api.post("/chat/conversations", {
      agent_key: "scripted",
      channel_binding: { channel: "telegram", chat_id: "42" },
    });
    const id = bound.body.id as string;
    // The channel starts the turn; nobody on the web asked for it.
    const channel = await sendFromChannel(id, script({ text: "from-" }, { gate: "obs" }, { text: "channel" }));
    expect(channel.ack).toEqual({ queued: false });
    // A late observer attaches mid-turn: it gets the turn so far, then the rest live.
    const observer = await t.subscribe(id);
    await observer.waitFor((e) => e.type === "text_delta");
    // In seq order: the queue snapshot the channel's own subscription primed, then the turn so far.
    expect(observer.types()).toEqual(["queue_changed", "turn_start", "text_delta"]);
    t.scripted.gates.open("obs");
    await observer.waitFor((e) => e.type === "turn_done");
    const text = observer.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text).join("");
    expect(text).toBe("from-channel");
    await channel.ended;
    expect(channel.seen).toEqual(["queue_changed", "turn_start", "text_delta", "text_delta", "turn_done"]);
    observer.close();
  });

  test("a channel's message sent while a turn runs is queued like any surface's, and the queue advances after it", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const first = await sendFromChannel(id, script({ gate: "seam" }));
    expect(first.ack).toEqual({ queued: false });
    const second = await sendFromChannel(id, "from the phone, second");
    expect(second.ack).toMatchObject({ queued: true });
    expect((await send(id, "desktop message")).body.queued).toBe(true);
    t.scripted.gates.open("seam");
    const starts = await sub.waitForCount((e) => e.type === "turn_start", 3);
    expect(starts.map((s) => (s.event as any).user_message.content[0].text)).toEqual([expect.any(String), "from the phone, second", "desktop message"]);
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    first.detach();
    second.detach();
    sub.close();
  });

  test("Last-Event-ID resumes exactly after the last event seen: no duplicates, no gaps", async () => {
    const id = await t.conversation();
    const first = await t.subscribe(id);
    await send(id, script({ text: "1" }, { text: "2" }, { gate: "resume" }, { text: "3" }, { text: "4" }));
    const two = await first.waitForCount((e) => e.type === "text_delta", 2);
    first.close();
    await first.waitForEnd();
    const second = await t.subscribe(id, two[1]!.id);
    t.scripted.gates.open("resume");
    await second.waitFor((e) => e.type === "turn_done");
    const deltas = [...first.events, ...second.events].filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text);
    expect(deltas).toEqual(["1", "2", "3", "4"]);
    const ids = [...first.events, ...second.events].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    second.close();
  });

  test("a cursor into a turn that has since finished gets resync; the persisted message is the truth", async () => {
    const id = await t.conversation();
    const first = await t.subscribe(id);
    await send(id, script({ text: "x" }, { gate: "away" }, { text: "y" }));
    const x = await first.waitFor((e) => e.type === "text_delta");
    const watcher = await t.subscribe(id); // keeps the bus alive while the first is away
    first.close();
    t.scripted.gates.open("away");
    await watcher.waitFor((e) => e.type === "turn_done");
    const back = await t.subscribe(id, x.id);
    await back.waitFor((e) => e.type === "resync");
    expect(back.types()).toEqual(["resync", "queue_changed"]);
    const msg = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
    expect(msg.content[0].text).toBe("xy");
    back.close();
    watcher.close();
  });

  test("a resumed subscriber mid-turn gets only what it missed", async () => {
    const id = await t.conversation();
    const first = await t.subscribe(id);
    await send(id, script({ text: "a" }, { gate: "mid1" }, { text: "b" }, { gate: "mid2" }, { text: "c" }));
    const a = await first.waitFor((e) => e.type === "text_delta");
    first.close();
    await first.waitForEnd();
    t.scripted.gates.open("mid1");
    const second = await t.subscribe(id, a.id);
    await second.waitFor((e) => e.type === "text_delta");
    expect(second.types()).toEqual(["text_delta"]);
    t.scripted.gates.open("mid2");
    await second.waitFor((e) => e.type === "turn_done");
    expect(second.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text)).toEqual(["b", "c"]);
    second.close();
  });

  test("a cursor from another stream (a restart, an idle reset) gets resync, then the current state", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id, "gone-17");
    await sub.waitFor((e) => e.type === "queue_changed");
    expect(sub.types()).toEqual(["resync", "queue_changed"]);
    sub.close();
  });

  test("subscribers get a heartbeat; an idle, unwatched conversation holds no bus", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, "hi");
    await sub.waitFor((e) => e.type === "turn_done");
    await sub.waitForComments(3); // ": connected" and two heartbeats
    expect(t.daemon.hub.peek(id)).toBeDefined();
    sub.close();
    await sub.waitForEnd();
    // The server notices the close asynchronously; wait for the bus to go.
    while (t.daemon.hub.peek(id)) await new Promise((r) => setImmediate(r));
    expect(t.daemon.hub.peek(id)).toBeUndefined();
  });

  test("subscribing to a missing conversation is a JSON 404, not a stream", async () => {
    const res = await t.api.get("/chat/conversations/nope/events");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("CONVERSATION_NOT_FOUND");
  });
});

describe("the conversation list stream", () => {
  test("announces created, running, renamed, archived and deleted conversations", async () => {
    const list = await t.subscribeList();
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ gate: "list" }));
    const running = await list.waitFor((e: any) => e.type === "conversation_updated" && e.conversation.id === id && e.conversation.running);
    expect(running).toBeDefined();
    t.scripted.gates.open("list");
    await list.waitFor((e: any) => e.type === "conversation_updated" && e.conversation.id === id && !e.conversation.running);
    await t.api.patch(`/chat/conversations/${id}`, { title: "Renamed live" });
    await list.waitFor((e: any) => e.type === "conversation_updated" && e.conversation.title === "Renamed live");
    await t.api.post(`/chat/conversations/${id}/archive`);
    await list.waitFor((e: any) => e.type === "conversation_updated" && e.conversation.id === id && e.conversation.archived_at);
    await t.api.delete(`/chat/conversations/${id}`);
    await list.waitFor((e: any) => e.type === "conversation_deleted" && e.id === id);
    expect((list.events[0]!.event as any)).toMatchObject({ type: "conversation_created", conversation: { id } });
    list.close();
    sub.close();
  });
});

import type { ChatEvent } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { ConversationBus, type BusFrame } from "./live-bus.js";

function collector() {
  const frames: BusFrame[] = [];
  let ended = false;
  return { frames, deliver: (f: BusFrame) => frames.push(f), end: () => (ended = true), ended: () => ended };
}
const delta = (text: string): ChatEvent => ({ type: "text_delta", text });
const queue = (n: number): ChatEvent => ({ type: "queue_changed", pending: Array.from({ length: n }, (_, i) => ({ id: `p${i}`, text: `t${i}`, truncated: false, length: 2 })), paused: false });

describe("ConversationBus", () => {
  test("a fresh subscriber gets the turn so far and the queue snapshot, in seq order", () => {
    const bus = new ConversationBus();
    bus.publish(queue(0));
    bus.beginTurn();
    bus.publish(delta("a"));
    bus.publish(queue(1));
    bus.publish(delta("b"));
    const c = collector();
    bus.subscribe(c);
    expect(c.frames.map((f) => f.event.type)).toEqual(["text_delta", "queue_changed", "text_delta"]);
    expect(c.frames.map((f) => f.seq)).toEqual([2, 3, 4]);
  });

  test("resuming from a cursor replays exactly what came after it", () => {
    const bus = new ConversationBus();
    bus.beginTurn();
    const frames = ["a", "b", "c", "d"].map((t) => bus.publish(delta(t)));
    const c = collector();
    bus.subscribe(c, frames[1]!.cursor);
    expect(c.frames.map((f) => (f.event as any).text)).toEqual(["c", "d"]);
    const caughtUp = collector();
    bus.subscribe(caughtUp, frames[3]!.cursor);
    expect(caughtUp.frames).toEqual([]);
  });

  test("a cursor from another epoch, the future, or before the buffer gets resync and a full replay", () => {
    const bus = new ConversationBus();
    bus.beginTurn();
    bus.publish(delta("old"));
    bus.endTurn();
    bus.beginTurn();
    bus.publish(delta("new"));
    for (const cursor of ["other-1", `${bus.epoch}-99`, `${bus.epoch}-0`, "garbage"]) {
      const c = collector();
      bus.subscribe(c, cursor);
      expect(c.frames.map((f) => f.event.type), cursor).toEqual(["resync", "text_delta"]);
      expect((c.frames[1]!.event as any).text).toBe("new");
    }
  });

  test("a long turn is compacted by merging deltas; content survives and mid-merge cursors resync", () => {
    const bus = new ConversationBus();
    bus.beginTurn();
    const frames: BusFrame[] = [];
    for (let i = 0; i < 10_000; i++) frames.push(bus.publish(delta(String(i % 10))));
    const c = collector();
    bus.subscribe(c);
    expect(c.frames.length).toBeLessThanOrEqual(4_097); // bounded, not one frame per delta
    expect(c.frames.map((f) => (f.event as any).text).join("")).toBe(frames.map((f) => (f.event as any).text).join(""));
    const inMerged = collector();
    bus.subscribe(inMerged, frames[10]!.cursor);
    expect(inMerged.frames[0]!.event.type).toBe("resync");
    const inTail = collector();
    bus.subscribe(inTail, frames[9_990]!.cursor);
    expect(inTail.frames.map((f) => (f.event as any).text).join("")).toBe("123456789");
  });

  test("close tells every subscriber the conversation is gone and ends their streams", () => {
    const bus = new ConversationBus();
    const c = collector();
    bus.subscribe(c);
    bus.close();
    expect(c.frames.at(-1)!.event).toEqual({ type: "conversation_deleted" });
    expect(c.ended()).toBe(true);
    expect(bus.subscriberCount).toBe(0);
  });

  test("idle means no turn and no subscriber", () => {
    const bus = new ConversationBus();
    expect(bus.idle).toBe(true);
    const off = bus.subscribe(collector());
    expect(bus.idle).toBe(false);
    off();
    bus.beginTurn();
    expect(bus.idle).toBe(false);
    bus.endTurn();
    expect(bus.idle).toBe(true);
  });
});

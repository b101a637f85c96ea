import type { PendingPreview } from "@coffer/protocol";
import { describe, expect, it } from "vitest";
import { moveId, shownOrder } from "./queue-order.js";

const p = (id: string): PendingPreview => ({ id, text: id, truncated: false, length: id.length });
const server = [p("a"), p("b"), p("c")];

describe("queue order", () => {
  it("moves an id to a place, or says nothing moves", () => {
    expect(moveId(["a", "b", "c"], "c", 0)).toEqual(["c", "a", "b"]);
    expect(moveId(["a", "b", "c"], "a", 2)).toEqual(["b", "c", "a"]);
    expect(moveId(["a", "b", "c"], "b", 1)).toBeNull();
    expect(moveId(["a", "b", "c"], "b", 3)).toBeNull();
    expect(moveId(["a", "b", "c"], "b", -1)).toBeNull();
    expect(moveId(["a", "b", "c"], "z", 0)).toBeNull();
  });

  it("shows the owner's order only over the server list it reordered", () => {
    expect(shownOrder(server, null)).toBe(server);
    expect(shownOrder(server, { base: server, ids: ["c", "a", "b"] }).map((x) => x.id)).toEqual(["c", "a", "b"]);
    // A new list from the server (even the same items) replaces the local order.
    const next = [...server];
    expect(shownOrder(next, { base: server, ids: ["c", "a", "b"] })).toBe(next);
  });
});

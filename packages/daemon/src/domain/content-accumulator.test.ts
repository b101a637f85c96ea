import { expect, test } from "vitest";
import { ContentAccumulator, plainText } from "./content-accumulator.js";
import { deriveTitle } from "./conversation.js";
import { withModel, withSessionId, parseStoredAgentConfig } from "./agent-config.js";

test("deltas grow one text block; tools interleave in emission order", () => {
  const acc = new ContentAccumulator();
  acc.add({ type: "text_delta", text: "Hel" });
  acc.add({ type: "text_delta", text: "lo. " });
  expect(acc.snapshot()).toEqual([{ type: "text", text: "Hello. " }]);
  acc.add({ type: "tool_call", tool_use_id: "1", tool_name: "Bash", tool_input: { c: 1 } });
  acc.add({ type: "tool_result", tool_use_id: "1", tool_name: "Bash", output: "ok", error: null });
  acc.add({ type: "text_delta", text: "Done" });
  acc.add({ type: "text_delta", text: "" });
  const blocks = acc.snapshot();
  expect(blocks.map((b) => b.type)).toEqual(["text", "tool_use", "tool_result", "text"]);
  expect(plainText(blocks)).toBe("Hello. \nDone");
});

test("titles are one line of at most 60 characters, cut at a word", () => {
  expect(deriveTitle("  fix\nthe   build  ")).toBe("fix the build");
  expect(deriveTitle("   ")).toBeNull();
  const t = deriveTitle("word ".repeat(30))!;
  expect(t.length).toBeLessThanOrEqual(60);
  expect(t.endsWith("word…")).toBe(true);
  expect(deriveTitle("x".repeat(100))!.length).toBe(60);
});

test("the model changes alone; cwd and session survive; blank clears", () => {
  const base = { cwd: "/w", session_id: "s" };
  expect(withModel(base, " opus ")).toEqual({ cwd: "/w", session_id: "s", model: "opus" });
  expect(withModel({ ...base, model: "x" }, "  ")).toEqual(base);
  expect(withModel({ ...base, model: "x" }, null)).toEqual(base);
  expect(withSessionId({ cwd: "/w", model: "m" }, "s2")).toEqual({ cwd: "/w", model: "m", session_id: "s2" });
  expect(parseStoredAgentConfig("[1]")).toEqual({});
  expect(parseStoredAgentConfig("not json")).toEqual({});
});

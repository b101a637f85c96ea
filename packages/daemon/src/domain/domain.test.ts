import { expect, test } from "vitest";
import { deriveTitle } from "./conversation.js";
import { withModel, withSessionId, parseStoredAgentConfig } from "./agent-config.js";

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

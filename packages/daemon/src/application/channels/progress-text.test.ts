import { describe, expect, test } from "vitest";
import { parseCommand } from "./chat-commands.js";
import { duration, endLine, progressText, restartNotice, toolSummary } from "./progress-text.js";

describe("progress text", () => {
  test("status line with working time, steps and tool lines", () => {
    const text = progressText(
      {
        startedAt: 0,
        steps: 2,
        tools: [
          { id: "1", name: "Bash", summary: "npm test", state: "ok" },
          { id: "2", name: "Read", summary: "src/app.ts", state: "running" },
        ],
        text: "Looking at the failures",
      },
      134_000,
    );
    expect(text).toBe("⏳ Working · 2m 14s · 2 steps\n✔️ Bash · npm test\n⏳ Read · src/app.ts\n\nLooking at the failures");
  });

  test("keeps the newest tool lines and the newest text", () => {
    const tools = Array.from({ length: 12 }, (_, i) => ({ id: String(i), name: "Bash", summary: `step ${i}`, state: "ok" as const }));
    const text = progressText({ startedAt: 0, steps: 12, tools, text: "x".repeat(2000) + "END" }, 5000);
    expect(text).toContain("… 4 earlier");
    expect(text).toContain("step 11");
    expect(text).not.toContain("step 3\n");
    expect(text.endsWith("END")).toBe(true);
    expect(text.length).toBeLessThan(1200);
  });

  test("tool inputs in a few words", () => {
    expect(toolSummary({ command: "npm   test\n--watch" })).toBe("npm test --watch");
    expect(toolSummary({ file_path: "/a/b.ts", content: "…" })).toBe("/a/b.ts");
    expect(toolSummary({ other: 3, name: "x" })).toBe("x");
    expect(toolSummary(null)).toBe("");
    expect(toolSummary({ command: "a".repeat(100) })).toHaveLength(60);
  });

  test("durations and end lines", () => {
    expect(duration(59_999)).toBe("59s");
    expect(duration(3_600_000 + 120_000)).toBe("1h 2m");
    expect(endLine({ kind: "stopped", queued: 2 }, 3000)).toBe("⏹ Stopped after 3s; the partial reply is kept. 2 queued messages wait: send a message to resume.");
    expect(endLine({ kind: "failed", message: "the agent crashed" }, 1000)).toBe("⚠️ Failed after 1s: the agent crashed");
  });
});

describe("chat commands", () => {
  test("known commands, with bot suffix and argument", () => {
    expect(parseCommand("/stop")).toEqual({ name: "stop", arg: "" });
    expect(parseCommand("/stop@coffer_bot")).toEqual({ name: "stop", arg: "" });
    expect(parseCommand("/model  gpt-5 ")).toEqual({ name: "model", arg: "gpt-5" });
    expect(parseCommand("/NEW codex")).toEqual({ name: "new", arg: "codex" });
  });

  test("anything else is a message to the agent", () => {
    expect(parseCommand("/deploy now")).toBeNull();
    expect(parseCommand("please /stop")).toBeNull();
    expect(parseCommand("/")).toBeNull();
  });
});

describe("acknowledgements", async () => {
  const { ackText } = await import("./inbound.js");
  test("one queued, a burst, refusals", () => {
    expect(ackText({ queued: 1, waiting: 3, refused: 0, resumed: false })).toBe("⏳ Queued (3 waiting)");
    expect(ackText({ queued: 7, waiting: 10, refused: 0, resumed: false })).toBe("⏳ Queued 7 messages (10 waiting)");
    expect(ackText({ queued: 2, waiting: 10, refused: 88, resumed: false })).toBe(
      "⏳ Queued 2 messages (10 waiting)\n10 messages are already waiting, so 88 messages were not queued. Wait for a reply, or /stop.",
    );
    expect(ackText({ queued: 0, waiting: 0, refused: 1, resumed: true })).toBe("10 messages are already waiting, so this one was not queued. The queue runs again now.");
  });
});

describe("progress text while the agent retries", () => {
  test("the status line says it is retrying and why, in place of Working", () => {
    const state = { startedAt: 0, steps: 1, tools: [], text: "" };
    expect(progressText({ ...state, retrying: "Retrying — attempt 3 of 6: connection refused" }, 12_000)).toBe("🔁 Retrying — attempt 3 of 6: connection refused · 12s · 1 step");
    expect(progressText({ ...state, retrying: null }, 12_000)).toBe("⏳ Working · 12s · 1 step");
  });
});

describe("after a restart", () => {
  test("a queue parked on a plan limit says it waits for the reset, not for a message", () => {
    expect(restartNotice(false, 2, "Paused until 14:05 — plan limit")).toBe("Coffer restarted. ⏸ Paused until 14:05 — plan limit; 2 queued messages wait for it.");
    expect(restartNotice(false, 1)).toBe("Coffer restarted. 1 queued message waits: send a message to resume.");
  });
});

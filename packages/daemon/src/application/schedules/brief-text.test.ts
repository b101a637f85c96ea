import { describe, expect, test } from "vitest";
import { briefText, type BriefRecords } from "./brief-text.js";

// Tuesday 8 December 2026, 07:30 in Berlin (06:30 UTC); the last brief a day before.
const AT = Date.parse("2026-12-08T06:30:00.000Z");
const SINCE = AT - 86_400_000;
const quietNight: BriefRecords = { since: SINCE, at: AT, zone: "Europe/Berlin", caughtUpFrom: null, conversations: [], questions: [], queued: [], schedules: [], limits: [] };

describe("the morning brief's text", () => {
  test("a quiet night is one line", () => {
    expect(briefText(quietNight)).toEqual({ text: "☀️ Coffer brief — since Mon 07:30: a quiet night — nothing ran, nothing waits.", quiet: true });
  });

  test("each part that has something, in order, with /open numbers and the zone's times; empty parts left out", () => {
    const { text, quiet } = briefText({
      ...quietNight,
      conversations: [
        { conversationId: "c1", title: "Fix the flaky test", finished: 3, failed: 1, stopped: 0, openNumber: 1 },
        { conversationId: "c2", title: null, finished: 0, failed: 0, stopped: 2, openNumber: null },
        { conversationId: "c3", title: "idle", finished: 0, failed: 0, stopped: 0, openNumber: 3 },
      ],
      questions: [{ title: "Fix the flaky test", text: "Which   branch\nshould I use?", askedAt: AT - 3 * 3_600_000, openNumber: 1 }],
      queued: [
        { title: "Release notes", count: 2, held: "paused", openNumber: 2 },
        { title: "empty", count: 0, held: null, openNumber: 4 },
      ],
      schedules: [
        { name: "morning triage", ran: 1, failed: 0 },
        { name: "hourly check", ran: 20, failed: 2 },
      ],
      limits: [
        { agent: "Claude Code", windows: [{ window: "five_hour", used_percent: 42.4, resets_at: "2026-12-08T09:00:00.000Z", window_minutes: 300 }] },
        { agent: "Codex", windows: [] },
      ],
    });
    expect(quiet).toBe(false);
    expect(text).toBe(
      [
        "☀️ Coffer brief — since Mon 07:30",
        "",
        "Turns",
        "• Fix the flaky test (/open 1): 3 finished, 1 failed",
        "• Untitled conversation: 2 stopped",
        "",
        "Open questions",
        "• Fix the flaky test (/open 1): Which branch should I use? (waiting since Tue 04:30)",
        "",
        "Queued",
        "• Release notes (/open 2): 2 waiting (paused)",
        "",
        "Schedules",
        "• morning triage: ran once",
        "• hourly check: ran 20 times, failed 2 times",
        "",
        "Plan limits",
        "• Claude Code: five_hour 42 % used, resets Tue 10:00",
      ].join("\n"),
    );
  });

  test("a brief missed while the machine slept says so; only limits known is still a quiet night", () => {
    const { text, quiet } = briefText({
      ...quietNight,
      caughtUpFrom: AT - 2 * 3_600_000,
      limits: [{ agent: "Codex", windows: [{ window: "primary", used_percent: null, resets_at: null, window_minutes: null }] }],
    });
    expect(quiet).toBe(true);
    expect(text.split("\n")).toEqual([
      "☀️ Coffer brief — since Mon 07:30",
      "(Due at Tue 05:30 while the machine slept; sent on wake.)",
      "A quiet night — nothing ran, nothing waits.",
      "",
      "Plan limits",
      "• Codex: primary use unknown",
    ]);
  });

  test("a long brief stays under the limit and says how many lines it left out", () => {
    const conversations = Array.from({ length: 200 }, (_, i) => ({ conversationId: `c${i}`, title: `Conversation number ${i} with a long title`, finished: 1, failed: 0, stopped: 0, openNumber: null }));
    const { text } = briefText({ ...quietNight, conversations, schedules: [{ name: "s", ran: 1, failed: 0 }] }, 1000);
    expect(text.length).toBeLessThanOrEqual(1000);
    const shown = text.split("\n").filter((l) => l.startsWith("• ")).length;
    expect(shown).toBeGreaterThan(5);
    expect(text.split("\n").at(-1)).toBe(`… and ${201 - shown} more (the page's history has them all)`);
  });
});

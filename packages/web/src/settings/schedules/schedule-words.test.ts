import { describe, expect, it } from "vitest";
import { lastRunWords, runTime, targetWords, whenWords } from "./schedule-words.js";

describe("schedule words", () => {
  it("says the timetable as the owner chose it", () => {
    expect(whenWords({ preset: "daily_at", at: "07:00" })).toBe("Daily at 07:00");
    expect(whenWords({ preset: "weekdays_at", at: "08:15" })).toBe("Weekdays at 08:15");
    expect(whenWords({ preset: "hourly" })).toBe("Hourly");
    expect(whenWords({ cron: "0 7 * * 1-5" })).toBe("Cron 0 7 * * 1-5");
  });

  it("names the target: the conversation's title, or the fresh conversation's agent, folder and model", () => {
    expect(targetWords({ conversation_id: "abcdef0123" }, () => "Nightly triage")).toBe("Into “Nightly triage”");
    expect(targetWords({ conversation_id: "abcdef0123" }, () => undefined)).toBe("Into “abcdef01”");
    expect(targetWords({ fresh: { agent: "claude_code", cwd: "/p", model: "opus" } }, () => undefined)).toBe("A fresh claude_code conversation in /p (opus)");
  });

  it("reads a run's time in the schedule's zone, not the browser's", () => {
    // 05:00 UTC is 06:00 in Berlin in winter: the card beside "Daily at 06:00 · Europe/Berlin" says 6:00.
    expect(runTime("2026-12-06T05:00:00.000Z", "Europe/Berlin")).toMatch(/\b0?6:00\b/);
    expect(runTime("2026-12-06T05:00:00.000Z", "Asia/Tokyo")).toMatch(/\b(0?2:00|14:00)\b/);
    expect(runTime(null, "UTC")).toBe("—");
  });

  it("says a catch-up run's note", () => {
    const base = { id: "s", name: "n", prompt: "p", when: { preset: "hourly" as const }, target: { conversation_id: "c" }, paused: false, time_zone: "UTC", next_run_at: null, created_at: "" };
    expect(lastRunWords({ ...base, last_run: null })).toBeNull();
    expect(lastRunWords({ ...base, last_run: { at: "", conversation_id: "c", status: "sent", caught_up: 3, message: "missed 3 runs while the machine slept; ran once" } })).toBe("sent — missed 3 runs while the machine slept; ran once");
  });
});

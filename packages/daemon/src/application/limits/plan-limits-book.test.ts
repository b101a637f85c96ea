import { describe, expect, test } from "vitest";
import { PlanLimitsBook } from "./plan-limits-book.js";

const NOW = Date.parse("2026-12-02T12:00:00.000Z");
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

describe("PlanLimitsBook", () => {
  test("keeps the latest report per agent; a sparse report does not drop a window it does not name", () => {
    const book = new PlanLimitsBook();
    book.record("codex", { type: "plan_limits", status: "allowed", windows: [
      { window: "primary", used_percent: 40, resets_at: at(60), window_minutes: 300 },
      { window: "secondary", used_percent: 10, resets_at: at(6000), window_minutes: 10080 },
    ] }, NOW);
    book.record("codex", { type: "plan_limits", status: "rejected", windows: [{ window: "primary", used_percent: 100, resets_at: at(55), window_minutes: 300 }] }, NOW + 1000);
    expect(book.get("codex", NOW + 1000)).toEqual({
      status: "rejected",
      windows: [
        { window: "primary", used_percent: 100, resets_at: at(55), window_minutes: 300 },
        { window: "secondary", used_percent: 10, resets_at: at(6000), window_minutes: 10080 },
      ],
      updated_at: new Date(NOW + 1000).toISOString(),
    });
    expect(book.get("claude_code", NOW)).toBeNull();
  });

  test("the reset is the latest among full windows, else among any; none in the future → null", () => {
    const book = new PlanLimitsBook();
    book.record("a", { type: "plan_limits", status: "rejected", windows: [
      { window: "five_hour", used_percent: 100, resets_at: at(30), window_minutes: 300 },
      { window: "seven_day", used_percent: 100, resets_at: at(900), window_minutes: 10080 },
      { window: "other", used_percent: 20, resets_at: at(9000), window_minutes: null },
    ] }, NOW);
    expect(book.resetAt("a", NOW)?.toISOString()).toBe(at(900));
    book.record("b", { type: "plan_limits", status: "rejected", windows: [{ window: "x", used_percent: null, resets_at: at(10), window_minutes: null }] }, NOW);
    expect(book.resetAt("b", NOW)?.toISOString()).toBe(at(10));
    expect(book.resetAt("b", NOW + 11 * 60_000)).toBeNull();
    expect(book.resetAt("nobody", NOW)).toBeNull();
  });

  test("past its reset a window reads unknown, and a rejection no full window backs reads unknown", () => {
    const book = new PlanLimitsBook();
    book.record("claude_code", { type: "plan_limits", status: "rejected", windows: [
      { window: "five_hour", used_percent: 100, resets_at: at(30), window_minutes: 300 },
      { window: "seven_day", used_percent: 40, resets_at: at(9000), window_minutes: 10080 },
    ] }, NOW);
    expect(book.get("claude_code", NOW + 29 * 60_000)).toMatchObject({ status: "rejected", windows: [{ used_percent: 100 }, { used_percent: 40 }] });
    const after = book.get("claude_code", NOW + 31 * 60_000)!;
    expect(after.status).toBeNull();
    expect(after.windows).toEqual([
      { window: "five_hour", used_percent: null, resets_at: null, window_minutes: 300 },
      { window: "seven_day", used_percent: 40, resets_at: at(9000), window_minutes: 10080 },
    ]);
    // The agent's next report is the truth again.
    book.record("claude_code", { type: "plan_limits", status: "allowed", windows: [{ window: "five_hour", used_percent: 3, resets_at: at(330), window_minutes: 300 }] }, NOW + 32 * 60_000);
    expect(book.get("claude_code", NOW + 32 * 60_000)).toMatchObject({ status: "allowed", windows: [{ window: "five_hour", used_percent: 3 }, { window: "seven_day", used_percent: 40 }] });
  });
});

import { describe, expect, test } from "vitest";
import { holdLabel } from "./plan-limits.js";

describe("holdLabel", () => {
  test("today: the time only; another day: the date too", () => {
    const now = new Date(2026, 11, 2, 13, 0);
    const today = new Date(2026, 11, 2, 14, 5);
    expect(holdLabel({ reason: "plan_limit", until: today.toISOString() }, now)).toBe("Paused until 14:05 — plan limit");
    const later = new Date(2026, 11, 9, 9, 30);
    const label = holdLabel({ reason: "plan_limit", until: later.toISOString() }, now);
    expect(label).toMatch(/^Paused until .*9.* 09:30 — plan limit$/);
  });
});

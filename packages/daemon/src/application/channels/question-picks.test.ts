import type { Question } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { answeredCount, answersFromPicks, applyPick } from "./question-picks.js";

const option = (label: string) => ({ label, description: "" });
const where: Question = { header: "", text: "Where?", options: [option("staging"), option("prod")], multi_select: false, allow_free_text: false };
const checks: Question = { header: "", text: "Which?", options: [option("lint"), option("test")], multi_select: true, allow_free_text: false, optional: true };
const qs = [where, checks];

function tap(...codes: number[]): Set<number> {
  return codes.reduce((picks, code) => applyPick(qs, picks, code), new Set<number>());
}

describe("picks on a question message", () => {
  test("a single choice among several questions is a radio: a second option replaces the first, the same one again clears it", () => {
    expect([...tap(0, 1)]).toEqual([1]);
    expect([...tap(0, 0)]).toEqual([]);
  });

  test("a multi-select toggles; Skip replaces its options and an option replaces Skip", () => {
    expect([...tap(100, 101)].sort()).toEqual([100, 101]);
    expect([...tap(100, 101, 199)]).toEqual([199]);
    expect([...tap(199, 100)]).toEqual([100]);
    // Other questions' picks are left alone.
    expect([...tap(1, 199)].sort()).toEqual([1, 199]);
  });

  test("the answers: labels per question, a skipped or untouched optional one empty, a required one missing is named", () => {
    expect(answersFromPicks(qs, tap(1, 100, 101))).toEqual({ answers: [{ selected: ["prod"] }, { selected: ["lint", "test"] }] });
    expect(answersFromPicks(qs, tap(0))).toEqual({ answers: [{ selected: ["staging"] }, { selected: [] }] });
    expect(answersFromPicks(qs, tap(199))).toEqual({ missing: 0 });
    expect(answeredCount(qs, tap(199))).toBe(1);
    expect(answeredCount(qs, tap())).toBe(0);
  });
});

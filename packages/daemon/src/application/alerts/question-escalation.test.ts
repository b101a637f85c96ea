import type { QuestionSettingsOut } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import type { Conversation } from "../../domain/conversation.js";
import { ManualAlarmClock } from "../../../test/support/manual-alarm-clock.js";
import { QuestionEscalation } from "./question-escalation.js";

const conv = { id: "c1", title: "Fix the build" } as Conversation;
const MIN = 60_000;
const asked = (questionId: string, askedAt: number) => ({ questionId, askedAt, questions: [] });

function rig(initial: QuestionSettingsOut) {
  const clock = new ManualAlarmClock(0);
  let settings = initial;
  const heard: string[] = [];
  const escalation = new QuestionEscalation(clock, { get: () => settings }, {
    phone: (s) => heard.push(`phone ${s.questionId} @${clock.now() / MIN}`),
    remind: (s) => heard.push(`remind ${s.questionId} @${clock.now() / MIN}`),
  });
  return { clock, heard, escalation, set: (next: QuestionSettingsOut) => (settings = next) };
}

describe("QuestionEscalation", () => {
  test("phone at N, reminder at M, each once, timed from when it was asked; settings as they were when it opened", () => {
    const { clock, heard, escalation, set } = rig({ phone_after_minutes: 5, remind_after_minutes: 60 });
    escalation.opened(conv, asked("q1", 0), "Which?");
    set({ phone_after_minutes: 1, remind_after_minutes: null });
    clock.advanceTo(4 * MIN);
    expect(heard).toEqual([]);
    clock.advanceTo(5 * MIN);
    clock.advanceTo(59 * MIN);
    expect(heard).toEqual(["phone q1 @5"]);
    clock.advanceTo(600 * MIN);
    expect(heard).toEqual(["phone q1 @5", "remind q1 @60"]);
    // Never answered for the owner, never dropped: it stays open until it is closed.
    expect(escalation.size).toBe(1);
    expect(escalation.closed("c1", "q1")).toMatchObject({ phoned: true });
    expect(escalation.size).toBe(0);
  });

  test("0 minutes is at once, in the asking call; null never reminds", () => {
    const { clock, heard, escalation } = rig({ phone_after_minutes: 0, remind_after_minutes: null });
    escalation.opened(conv, asked("q1", 0), null);
    expect(heard).toEqual(["phone q1 @0"]);
    expect(clock.pending).toBe(0);
  });

  test("closed before N: nothing is left armed, nothing fires, and the phone was never told", () => {
    const { clock, heard, escalation } = rig({ phone_after_minutes: 5, remind_after_minutes: 60 });
    escalation.opened(conv, asked("q1", 0), null);
    expect(clock.pending).toBe(2);
    expect(escalation.closed("c1", "q1")).toMatchObject({ phoned: false });
    expect(clock.pending).toBe(0);
    clock.advanceTo(600 * MIN);
    expect(heard).toEqual([]);
    expect(escalation.closed("c1", "q1")).toBeNull();
  });

  test("a question asked long ago (a late wake) fires what is due once, at once", () => {
    const { clock, heard, escalation } = rig({ phone_after_minutes: 5, remind_after_minutes: 60 });
    clock.advanceTo(30 * MIN);
    escalation.opened(conv, asked("q1", 0), null);
    expect(heard).toEqual(["phone q1 @30"]);
    clock.advanceTo(600 * MIN);
    expect(heard).toEqual(["phone q1 @30", "remind q1 @60"]);
  });
});

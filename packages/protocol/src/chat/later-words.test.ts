import { describe, expect, test } from "vitest";
import { laterTimeWords, parseLaterWhen, willSendWords } from "./later-words.js";

// Monday 7 December 2026, 06:00 in Berlin (05:00 UTC).
const SIX_BERLIN = Date.parse("2026-12-07T05:00:00.000Z");
const ZONE = "Europe/Berlin";
const at = (words: string, now = SIX_BERLIN, zone = ZONE) => {
  const r = parseLaterWhen(words.split(" "), now, zone);
  return r && "at" in r.when ? new Date(r.when.at).toISOString() : r;
};

describe("send-later words", () => {
  test("a clock time is the next such time in the owner's zone", () => {
    expect(at("07:00")).toBe("2026-12-07T06:00:00.000Z");
    expect(at("7am")).toBe("2026-12-07T06:00:00.000Z");
    expect(at("7:30pm")).toBe("2026-12-07T18:30:00.000Z");
    // 05:00 has passed in Berlin: tomorrow's.
    expect(at("05:00")).toBe("2026-12-08T04:00:00.000Z");
    expect(at("tomorrow 09:00")).toBe("2026-12-08T08:00:00.000Z");
    expect(at("07:00", SIX_BERLIN, "America/New_York")).toBe("2026-12-07T12:00:00.000Z");
  });

  test("durations, the reset, and what is not a time", () => {
    expect(at("in 2h")).toBe("2026-12-07T07:00:00.000Z");
    expect(at("in 30m")).toBe("2026-12-07T05:30:00.000Z");
    expect(at("in 1h30m")).toBe("2026-12-07T06:30:00.000Z");
    expect(parseLaterWhen(["reset", "hello"], SIX_BERLIN, ZONE)).toEqual({ when: { reset: true }, used: 1 });
    expect(parseLaterWhen(["tomorrow", "9am", "x"], SIX_BERLIN, ZONE)?.used).toBe(2);
    for (const bad of ["hello", "25:00", "7", "in soon", "13pm", "in 0m"]) expect(parseLaterWhen(bad.split(" "), SIX_BERLIN, ZONE)).toBeNull();
  });

  test("the reply reads the time in the owner's zone", () => {
    expect(laterTimeWords("2026-12-07T06:00:00.000Z", ZONE)).toBe("Mon 7 Dec, 07:00");
    expect(willSendWords({ send_at: "2026-12-07T06:00:00.000Z", when: "at" }, ZONE)).toBe("⏰ Will send at Mon 7 Dec, 07:00");
    expect(willSendWords({ send_at: "2026-12-07T06:40:00.000Z", when: "limit_reset" }, ZONE)).toBe("⏰ Will send when the limit resets (Mon 7 Dec, 07:40)");
  });
});

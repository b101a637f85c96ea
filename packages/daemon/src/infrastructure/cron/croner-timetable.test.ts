import { describe, expect, it } from "vitest";
import { dueTimesSince } from "../../application/schedules/schedule-timing.js";
import { cronerTimetable } from "./croner-timetable.js";

const cron = cronerTimetable();
const at = (iso: string) => Date.parse(iso);

describe("the cron timetable (croner)", () => {
  it("reads 07:00 in the owner's zone across a daylight-saving change", () => {
    // Berlin leaves summer time on 25 October 2026: 07:00 is 05:00 UTC before, 06:00 UTC after.
    expect(new Date(cron.nextAfter("0 7 * * *", "Europe/Berlin", at("2026-10-24T06:00:00Z"))!).toISOString()).toBe("2026-10-25T06:00:00.000Z");
    expect(new Date(cron.nextAfter("0 7 * * *", "Europe/Berlin", at("2026-10-23T06:00:00Z"))!).toISOString()).toBe("2026-10-24T05:00:00.000Z");
  });

  it("gives the first due time strictly after the one given", () => {
    expect(cron.nextAfter("0 * * * *", "UTC", at("2026-12-07T06:00:00Z"))).toBe(at("2026-12-07T07:00:00Z"));
  });

  it("says which part is wrong: the expression or the zone", () => {
    expect(cron.problem("0 7 * * 1-5", "Europe/Berlin")).toBeNull();
    expect(cron.problem("61 * * * *", "UTC")).toMatchObject({ field: "when" });
    expect(cron.problem("0 7 * * *", "Mars/Olympus")).toMatchObject({ field: "zone" });
  });

  it("counts the due times a sleep went past (the first included)", () => {
    expect(dueTimesSince(cron, "0 7 * * *", "UTC", at("2026-12-07T07:00:00Z"), at("2026-12-09T07:30:00Z"))).toBe(3);
    expect(dueTimesSince(cron, "0 7 * * *", "UTC", at("2026-12-07T07:00:00Z"), at("2026-12-07T07:00:00Z"))).toBe(1);
  });
});

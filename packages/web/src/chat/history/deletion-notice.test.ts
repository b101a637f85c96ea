import { describe, expect, it } from "vitest";
import { deletionNotice } from "./deletion-notice.js";

const DAY = 86_400_000;
const now = Date.parse("2026-03-10T12:00:00.000Z");
const archivedAgo = (days: number) => new Date(now - days * DAY).toISOString();

describe("deletionNotice", () => {
  it("counts the whole days left before retention deletes an archived conversation", () => {
    expect(deletionNotice(archivedAgo(0), 30, now)).toBe("deleted in 30 days");
    expect(deletionNotice(new Date(now - 5_000).toISOString(), 30, now)).toBe("deleted in 30 days");
    expect(deletionNotice(archivedAgo(7.5), 30, now)).toBe("deleted in 23 days");
    expect(deletionNotice(archivedAgo(28.5), 30, now)).toBe("deleted in 2 days");
  });

  it("says within a day once less than a day is left, overdue included (the next pass takes it)", () => {
    expect(deletionNotice(archivedAgo(29), 30, now)).toBe("deleted within a day");
    expect(deletionNotice(archivedAgo(29.5), 30, now)).toBe("deleted within a day");
    expect(deletionNotice(archivedAgo(45), 30, now)).toBe("deleted within a day");
  });

  it("says nothing when retention keeps archived conversations forever, or for an active one", () => {
    expect(deletionNotice(archivedAgo(3), null, now)).toBeNull();
    expect(deletionNotice(null, 30, now)).toBeNull();
  });
});

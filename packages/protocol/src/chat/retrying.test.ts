import { describe, expect, test } from "vitest";
import { retryAsCounted, retryingLabel, type RetryingEvent } from "./retrying.js";

const notice = (attempt: number, max: number | null): RetryingEvent => ({ type: "retrying", attempt, max_attempts: max, message: "connection refused", delay_ms: null });

describe("retry lines", () => {
  test("the line says the attempt and the give-up point in words", () => {
    expect(retryingLabel(notice(3, 6))).toBe("Retrying — attempt 3 of 6: connection refused");
    expect(retryingLabel(notice(2, null))).toBe("Retrying — attempt 2: connection refused");
  });

  test("the daemon's give-up, when nearer than the agent's cap, is the end the line names", () => {
    // Claude says "5 of 10", but the turn ends after 6 retries in a row: it is attempt 5 of 6.
    expect(retryAsCounted(notice(5, 10), 5, 6)).toMatchObject({ attempt: 5, max_attempts: 6 });
    // Codex's "waiting for network" has no count and no cap: the daemon's count and cap.
    expect(retryAsCounted(notice(1, null), 4, 6)).toMatchObject({ attempt: 4, max_attempts: 6 });
    // The agent gives up first (cap 5 < 6): its own figures stand.
    expect(retryAsCounted(notice(2, 5), 2, 6)).toEqual(notice(2, 5));
    // The agent has 3 left (3 of 6), the daemon 5 (it saw one notice): the agent's end is nearer.
    expect(retryAsCounted(notice(3, 6), 1, 6)).toEqual(notice(3, 6));
    // Give-up off: the agent's figures as it said them.
    expect(retryAsCounted(notice(7, 10), 7, 0)).toEqual(notice(7, 10));
  });
});

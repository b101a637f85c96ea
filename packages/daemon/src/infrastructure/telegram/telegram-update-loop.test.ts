/**
 * Telegram's long-poll loop as it moved from the channel runner into the adapter (issue 26, seam
 * step 4). The Telegram integration and reliability suites (test/integration/telegram-*,
 * test/reliability/telegram-*, channel-kill) run on it with their assertions unchanged; this pins
 * the rules the loop carried over, one by one, against a scripted getUpdates.
 */
import { describe, expect, it } from "vitest";
import { acceptance } from "../../../test/support/acceptance.js";
import { PlatformFailure, type InboundUpdate, type UpdateSink } from "../../application/channels/ports.js";
import { offsetOf, pollTelegram, type GetUpdates } from "./telegram-update-loop.js";

const update = (id: number): InboundUpdate => ({ updateId: String(id), chatId: "7", threadId: null, chatType: "private", sender: { id: "7", name: "Ada" }, text: `m${id}` });

/** A sink that records what the loop told it; `onDeliver` may stop the loop mid-batch. */
function recorder(onDeliver: (u: InboundUpdate) => void = () => {}) {
  const log: string[] = [];
  const sink: UpdateSink = {
    deliver: async (u, cursor) => {
      log.push(`deliver ${u.updateId} @${cursor}`);
      onDeliver(u);
    },
    beginBatch: () => log.push("begin"),
    endBatch: () => log.push("end"),
    healthy: () => log.push("healthy"),
    trouble: (f) => log.push(`trouble ${f.kind}`),
  };
  return { log, sink };
}

/** getUpdates answering from a script, one answer per call; the call after the script stops the loop. */
function scripted(answers: (InboundUpdate[] | PlatformFailure)[], stop: AbortController) {
  const calls: { offset: number; timeout: number }[] = [];
  const get: GetUpdates = async (offset, timeout) => {
    calls.push({ offset, timeout });
    const next = answers.shift();
    if (!next) {
      stop.abort();
      throw new Error("aborted");
    }
    if (next instanceof PlatformFailure) throw next;
    return next;
  };
  return { calls, get };
}

const TIMINGS = { pollTimeoutSeconds: 50, backoffMs: [1, 2] };

describe("pollTelegram", () => {
  acceptance("026-second-platform", "Telegram's suite passes unchanged on the platform-neutral seam", async () => {
    // From a stored cursor: the first poll is not held (the page would read "Starting…" for 50 s),
    // later ones are; each update goes with the next offset as its cursor, one batch bracketed.
    const stop = new AbortController();
    const { calls, get } = scripted([[update(41), update(42), update(43)], [update(44)]], stop);
    const { log, sink } = recorder();
    await pollTelegram(get, "42", sink, TIMINGS, stop.signal);
    expect(calls).toEqual([
      { offset: 42, timeout: 0 },
      { offset: 44, timeout: 50 },
      { offset: 45, timeout: 50 },
    ]);
    // 41 is below the cursor (a redelivery): skipped, never handed over again.
    expect(log).toEqual(["healthy", "begin", "deliver 42 @43", "deliver 43 @44", "end", "healthy", "begin", "deliver 44 @45", "end"]);
  });

  it("a failed poll is trouble, backs off and polls again unheld; a revoked token ends the loop with the failure", async () => {
    const stop = new AbortController();
    const { calls, get } = scripted([new PlatformFailure("unreachable", "down"), [update(5)], new PlatformFailure("unauthorized", "revoked")], stop);
    const { log, sink } = recorder();
    await expect(pollTelegram(get, null, sink, TIMINGS, stop.signal)).rejects.toMatchObject({ kind: "unauthorized" });
    expect(calls).toEqual([
      { offset: 0, timeout: 0 },
      { offset: 0, timeout: 0 },
      { offset: 6, timeout: 50 },
    ]);
    expect(log).toEqual(["trouble unreachable", "healthy", "begin", "deliver 5 @6", "end"]);
  });

  it("a stop mid-batch hands over nothing more, still closes the batch, and polls no further", async () => {
    const stop = new AbortController();
    const { calls, get } = scripted([[update(1), update(2), update(3)]], stop);
    const { log, sink } = recorder((u) => {
      if (u.updateId === "2") stop.abort();
    });
    await pollTelegram(get, null, sink, TIMINGS, stop.signal);
    expect(calls).toHaveLength(1);
    expect(log).toEqual(["healthy", "begin", "deliver 1 @2", "deliver 2 @3", "end"]);
  });

  it("reads a cursor as the next offset; none or garbage is 0", () => {
    expect([offsetOf(null), offsetOf("7"), offsetOf(""), offsetOf("{}"), offsetOf("-3")]).toEqual([0, 7, 0, 0, 0]);
  });
});

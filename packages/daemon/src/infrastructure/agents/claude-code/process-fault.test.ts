import { describe, expect, test } from "vitest";
import type { ProcessEnd } from "./claude-process.js";
import { processFault } from "./process-fault.js";

const end = (over: Partial<ProcessEnd>): ProcessEnd => ({
  spawnError: null,
  protocolFault: null,
  exitCode: null,
  signal: null,
  killedByUs: false,
  stderrTail: "",
  ...over,
});

describe("processFault", () => {
  test("a binary that cannot be executed is not installed", () => {
    const err = Object.assign(new Error("spawn claude ENOENT"), { code: "ENOENT" });
    expect(processFault(end({ spawnError: err }), null)).toMatchObject({ code: "agent_not_installed" });
  });

  test("garbage on stdout wins over the kill it caused", () => {
    const fault = processFault(end({ protocolFault: "oops", signal: "SIGKILL", killedByUs: true }), null);
    expect(fault).toEqual({ type: "turn_error", code: "agent_protocol_error", message: expect.stringContaining('"oops"') });
  });

  test("a signal we did not send is a crash; one we sent is not", () => {
    expect(processFault(end({ signal: "SIGSEGV" }), null)).toMatchObject({ code: "agent_crashed" });
    expect(processFault(end({ signal: "SIGKILL", killedByUs: true }), null)).toMatchObject({ code: "agent_exited" });
  });

  test("a non-zero exit carries the last stderr lines", () => {
    const fault = processFault(end({ exitCode: 2, stderrTail: "a\nb\nc\nd\ne\nf\nError: bad flag" }), null);
    expect(fault).toMatchObject({ code: "agent_exited" });
    expect(fault.message).toBe("Claude Code exited with code 2: c\nd\ne\nf\nError: bad flag");
  });

  test("no process information: the SDK's own error", () => {
    expect(processFault(null, new Error("Claude Code native binary not found"))).toEqual({
      type: "turn_error",
      code: "agent_error",
      message: "Claude Code native binary not found",
    });
  });
});

import { describe, expect, test } from "vitest";
import { ERROR_CATALOGUE, ErrorCode, ErrorEnvelope, ErrorKind, httpStatusOf, KIND_STATUS } from "./errors.js";
import { TurnErrorEvent } from "../chat/events.js";
import { TURN_ERROR_CATALOGUE, TurnErrorCode, TurnFailureCode } from "../chat/turn-errors.js";

describe("the error catalogue", () => {
  test("every code is SCREAMING_SNAKE, has a known kind, an error status and a one-line description", () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(ErrorKind.options).toContain(entry.kind);
      const status = httpStatusOf(code as ErrorCode);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(entry.about.trim().length, code).toBeGreaterThan(0);
      expect(entry.about, code).not.toContain("\n");
    }
    expect(ErrorCode.options).toEqual(Object.keys(ERROR_CATALOGUE));
  });

  test("every kind has a status and is used by at least one code", () => {
    const used = new Set(Object.values(ERROR_CATALOGUE).map((e) => e.kind));
    for (const kind of ErrorKind.options) {
      expect(KIND_STATUS[kind], kind).toBeTypeOf("number");
      expect(used.has(kind), kind).toBe(true);
    }
  });

  test("an envelope with a code outside the catalogue does not parse", () => {
    expect(ErrorEnvelope.safeParse({ error: { code: "NOT_FOUND", message: "m", details: null } }).success).toBe(true);
    expect(ErrorEnvelope.safeParse({ error: { code: "SOMETHING_NEW", message: "m", details: null } }).success).toBe(false);
  });
});

describe("turn error codes", () => {
  test("each has a one-line description and none shadows a catalogue code", () => {
    for (const [code, about] of Object.entries(TURN_ERROR_CATALOGUE)) {
      expect(about.trim().length, code).toBeGreaterThan(0);
      expect(about, code).not.toContain("\n");
      expect(Object.keys(ERROR_CATALOGUE)).not.toContain(code);
    }
  });

  test("a turn_error carries a turn code or a catalogue code, nothing else", () => {
    expect(TurnFailureCode.options).toEqual([...TurnErrorCode.options, ...ErrorCode.options]);
    for (const code of ["daemon_restart", "codex_exited", "AGENT_UNAVAILABLE", "INTERNAL_ERROR"]) {
      expect(TurnErrorEvent.safeParse({ type: "turn_error", code, message: "m" }).success, code).toBe(true);
    }
    expect(TurnErrorEvent.safeParse({ type: "turn_error", code: "model_rejected", message: "m" }).success).toBe(false);
  });
});

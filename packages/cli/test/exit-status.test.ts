import { ERROR_CATALOGUE, type ErrorCode } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { exitCodeFor } from "../src/client.js";

/**
 * README, "The CLI": 0 ok, 2 usage (commander), 3 not found, 4 rejected input, 5 unreachable,
 * 6 unauthorized, 7 busy, 8 turn failed, 9 data dir taken or unsafe, 10 credential key unusable
 * or disk full, 11 daemon not verified, 1 else.
 */
const README_STATUSES = [1, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/** The exit statuses before the catalogue (the hand-kept EXIT map; any other code exited 1). */
const EXIT_BEFORE_CATALOGUE: Partial<Record<ErrorCode, number>> = {
  CONVERSATION_NOT_FOUND: 3,
  SKILL_NOT_FOUND: 3,
  MEMORY_NOT_FOUND: 3,
  KNOWLEDGE_BASE_NOT_FOUND: 3,
  DOCUMENT_NOT_FOUND: 3,
  IMPORT_NOT_FOUND: 3,
  CREDENTIAL_NOT_FOUND: 3,
  CONNECTION_NOT_FOUND: 3,
  MCP_SERVER_NOT_FOUND: 3,
  NOT_FOUND: 3,
  UNKNOWN_AGENT: 4,
  AGENT_CONFIG_REJECTED: 4,
  MCP_SERVER_EXISTS: 4,
  VALIDATION_FAILED: 4,
  INVALID_JSON: 4,
  IMPORT_PATH_INVALID: 4,
  KNOWLEDGE_BASE_EXISTS: 4,
  UNAUTHORIZED: 6,
  AGENT_UNAVAILABLE: 7,
  TURN_IN_PROGRESS: 7,
  FORBIDDEN_HOST: 1,
  FORBIDDEN_ORIGIN: 1,
  METHOD_NOT_ALLOWED: 1,
  PAYLOAD_TOO_LARGE: 1,
  UNSUPPORTED_MEDIA_TYPE: 1,
  HEADERS_TOO_LARGE: 1,
  REQUEST_TIMEOUT: 1,
  INTERNAL_ERROR: 1,
  SKILL_INVALID: 1,
  CREDENTIAL_UNREADABLE: 1,
};

/** Rejected input that exited 1 only because the hand-kept map missed it (docs/decisions.md, "Error catalogue"). */
const NOW_REJECTED_INPUT: ErrorCode[] = ["CURSOR_INVALID", "UNKNOWN_WIRE", "CONNECTION_INVALID", "MALFORMED_REQUEST", "CONNECTION_NAME_TAKEN"];

describe("exit status", () => {
  test("every code in the catalogue has one of the README's exit statuses", () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      expect(README_STATUSES, code).toContain(exitCodeFor(code));
    }
  });

  test("codes keep the exit status they had before the catalogue", () => {
    for (const [code, exit] of Object.entries(EXIT_BEFORE_CATALOGUE)) expect(exitCodeFor(code as ErrorCode), code).toBe(exit);
  });

  test("rejected input the old map missed now exits 4 like the rest", () => {
    for (const code of NOW_REJECTED_INPUT) expect(exitCodeFor(code), code).toBe(4);
  });

  test("the CLI's own codes", () => {
    expect([exitCodeFor("USAGE"), exitCodeFor("DAEMON_UNREACHABLE"), exitCodeFor("TURN_FAILED")]).toEqual([4, 5, 8]);
    expect([exitCodeFor("IMPORT_FAILED"), exitCodeFor("HTTP_ERROR")]).toEqual([1, 1]);
  });
});

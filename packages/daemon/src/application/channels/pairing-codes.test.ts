import { PAIRING_ALPHABET } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { PAIRING_MAX_GUESSERS, PAIRING_TTL_MS, offeredCode, pairingCodeFrom } from "../../domain/pairing-code.js";
import { PairingCodes } from "./pairing-codes.js";

describe("pairing codes", () => {
  test("8 characters of the unambiguous alphabet, no 0/O/1/I", () => {
    const codes = new PairingCodes();
    for (let i = 0; i < 200; i++) {
      const { code } = codes.issue("c", 0);
      expect(code).toMatch(/^[A-Z2-9]{8}$/);
      for (const ch of code) expect(PAIRING_ALPHABET).toContain(ch);
      expect(code).not.toMatch(/[01OI]/);
    }
  });

  test("rejection sampling skips biased bytes", () => {
    expect(pairingCodeFrom(new Uint8Array([255, 254, 0, 1, 2, 3, 4, 5, 6, 7]))).toBe("ABCDEFGH");
  });

  test("works once, within the hour", () => {
    const codes = new PairingCodes();
    const { code, expiresAt } = codes.issue("c", 1000);
    expect(expiresAt).toBe(1000 + PAIRING_TTL_MS);
    expect(codes.claim("c", code, "ada", 2000)).toBe(true);
    expect(codes.claim("c", code, "ada", 2001)).toBe(false);
  });

  test("expired codes are refused", () => {
    const codes = new PairingCodes();
    const { code } = codes.issue("c", 0);
    expect(codes.claim("c", code, "ada", PAIRING_TTL_MS)).toBe(false);
    expect(codes.active("c", PAIRING_TTL_MS)).toBe(false);
  });

  test("a sender's 10th wrong guess stops their guessing; the code stays live for everyone else (issue 21, W6)", () => {
    const codes = new PairingCodes();
    const { code } = codes.issue("c", 0);
    for (let i = 0; i < 25; i++) expect(codes.claim("c", "WRONGXXX", "eve", 1)).toBe(false);
    expect(codes.active("c", 1)).toBe(true);
    // Eve is no longer heard, even with the right code; the owner is.
    expect(codes.claim("c", code, "eve", 2)).toBe(false);
    expect(codes.state("c", 2)).toMatchObject({ state: "live" });
    expect(codes.claim("c", code, "ada", 2)).toBe(true);
    expect(codes.state("c", 3)).toBeNull();
  });

  test("too many distinct wrong guessers void the code, which then says so (bounded memory)", () => {
    const codes = new PairingCodes();
    const { code } = codes.issue("c", 0);
    for (let i = 0; i < PAIRING_MAX_GUESSERS - 1; i++) codes.claim("c", "WRONGXXX", `s${i}`, 1);
    expect(codes.state("c", 1)).toMatchObject({ state: "live" });
    codes.claim("c", "WRONGXXX", "last", 1);
    expect(codes.state("c", 1)).toMatchObject({ state: "voided", refusedAt: null });
    expect(codes.active("c", 1)).toBe(false);
    expect(codes.guessers("c")).toBe(0);
    // The right code, too late: refused, and the refusal is shown.
    expect(codes.claim("c", code, "ada", 5)).toBe(false);
    expect(codes.state("c", 6)).toMatchObject({ state: "voided", refusedAt: 5 });
  });

  test("an expired code is shown as expired, and a late attempt with it is noted", () => {
    const codes = new PairingCodes();
    const { code, expiresAt } = codes.issue("c", 0);
    expect(codes.state("c", PAIRING_TTL_MS)).toEqual({ state: "expired", expiresAt, refusedAt: null });
    expect(codes.claim("c", "WRONGXXX", "eve", PAIRING_TTL_MS + 1)).toBe(false);
    expect(codes.state("c", PAIRING_TTL_MS + 2)?.refusedAt).toBeNull();
    expect(codes.claim("c", code, "ada", PAIRING_TTL_MS + 3)).toBe(false);
    expect(codes.state("c", PAIRING_TTL_MS + 4)).toEqual({ state: "expired", expiresAt, refusedAt: PAIRING_TTL_MS + 3 });
  });

  test("matches() neither spends the code nor counts a guess", () => {
    const codes = new PairingCodes();
    const { code } = codes.issue("c", 0);
    for (let i = 0; i < 20; i++) expect(codes.matches("c", "NOTTHEONE", 1)).toBe(false);
    expect(codes.matches("c", code, 1)).toBe(true);
    expect(codes.claim("c", code, "ada", 1)).toBe(true);
  });

  test("a new code replaces the old one", () => {
    const codes = new PairingCodes();
    const first = codes.issue("c", 0).code;
    const second = codes.issue("c", 0).code;
    if (first !== second) expect(codes.claim("c", first, "ada", 1)).toBe(false);
    expect(codes.claim("c", second, "ada", 1)).toBe(true);
  });

  test("what counts as an offered code", () => {
    expect(offeredCode("abcdefgh")).toBe("ABCDEFGH");
    expect(offeredCode("  ABCD2345 ")).toBe("ABCD2345");
    expect(offeredCode("/start ABCD2345")).toBe("ABCD2345");
    expect(offeredCode("/start@coffer_bot ABCD2345")).toBe("ABCD2345");
    expect(offeredCode("hello there")).toBeNull();
    expect(offeredCode("ABCD234")).toBeNull();
    expect(offeredCode("/start")).toBeNull();
  });
});

import { PAIRING_ALPHABET } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { PAIRING_TTL_MS, offeredCode, pairingCodeFrom } from "../../domain/pairing-code.js";
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
    expect(codes.claim("c", code, 2000)).toBe(true);
    expect(codes.claim("c", code, 2001)).toBe(false);
  });

  test("expired codes are refused", () => {
    const codes = new PairingCodes();
    const { code } = codes.issue("c", 0);
    expect(codes.claim("c", code, PAIRING_TTL_MS)).toBe(false);
    expect(codes.active("c", PAIRING_TTL_MS)).toBe(false);
  });

  test("the 10th wrong guess voids the code: an 11th, even right, finds nothing", () => {
    const codes = new PairingCodes();
    const { code } = codes.issue("c", 0);
    for (let i = 0; i < 9; i++) expect(codes.claim("c", "WRONGXXX", 1)).toBe(false);
    expect(codes.active("c", 1)).toBe(true);
    expect(codes.claim("c", "WRONGXXX", 1)).toBe(false);
    expect(codes.active("c", 1)).toBe(false);
    expect(codes.claim("c", code, 2)).toBe(false);
  });

  test("matches() neither spends the code nor counts a guess", () => {
    const codes = new PairingCodes();
    const { code } = codes.issue("c", 0);
    for (let i = 0; i < 20; i++) expect(codes.matches("c", "NOTTHEONE", 1)).toBe(false);
    expect(codes.matches("c", code, 1)).toBe(true);
    expect(codes.claim("c", code, 1)).toBe(true);
  });

  test("a new code replaces the old one", () => {
    const codes = new PairingCodes();
    const first = codes.issue("c", 0).code;
    const second = codes.issue("c", 0).code;
    if (first !== second) expect(codes.claim("c", first, 1)).toBe(false);
    expect(codes.claim("c", second, 1)).toBe(true);
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

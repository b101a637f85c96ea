import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { DaemonAuth, proofMac } from "./daemon-auth.js";

const TOKEN = "t".repeat(43);
const NONCE = "abcdefghijklmnopqrstuvwxyz012345";

function auth(limits = { loginCodeTtlMs: 60_000, maxSessions: 3, maxLoginCodes: 2 }) {
  let now = 1_000_000;
  const a = new DaemonAuth(TOKEN, { now: () => now }, limits);
  return { a, advance: (ms: number) => (now += ms) };
}

describe("the proof MAC", () => {
  test("is HMAC-SHA256 over the label, the nonce and the port, base64url", () => {
    const expected = createHmac("sha256", TOKEN).update(`coffer-proof\n${NONCE}\n7431`).digest("base64url");
    expect(proofMac(TOKEN, NONCE, 7431)).toBe(expected);
    expect(Buffer.from(expected, "base64url")).toHaveLength(32);
  });

  test("changes with the port, the nonce and the key (a relay on another port cannot reuse it)", () => {
    const base = proofMac(TOKEN, NONCE, 7431);
    expect(proofMac(TOKEN, NONCE, 7432)).not.toBe(base);
    expect(proofMac(TOKEN, `${NONCE}x`, 7431)).not.toBe(base);
    expect(proofMac(`${TOKEN}x`, NONCE, 7431)).not.toBe(base);
  });

  test("is keyed with the token, or with a live session's secret", () => {
    const { a } = auth();
    expect(a.prove(NONCE, 7431)).toBe(proofMac(TOKEN, NONCE, 7431));
    const s = a.openSession();
    expect(a.prove(NONCE, 7431, s.session_id)).toBe(proofMac(s.secret, NONCE, 7431));
    expect(a.prove(NONCE, 7431, "unknown")).toBeNull();
  });
});

describe("sessions and login codes", () => {
  test("a bearer is the token, a live session, an ended one, or nobody", () => {
    const { a } = auth();
    const s = a.openSession();
    expect(a.identify(TOKEN)).toEqual({ kind: "token" });
    expect(a.identify(`${s.session_id}.${s.secret}`)).toEqual({ kind: "session", sessionId: s.session_id });
    expect(a.identify(`${s.session_id}.${s.secret}x`)).toBeNull();
    expect(a.identify("wrong")).toBeNull();
    // A gateway credential (`cgw1.<id>.<mac>`) is not session-shaped: nobody, not an ended session.
    expect(a.identify("cgw1.Y29kZXgKYzE.bWFj")).toBeNull();
    a.clear();
    expect(a.identify(`${s.session_id}.${s.secret}`)).toBe("ended");
  });

  test("login codes work once and expire", () => {
    const { a, advance } = auth();
    const first = a.issueLoginCode();
    expect(first.expires_in_ms).toBe(60_000);
    expect(a.redeemLoginCode(first.code)).toBe(true);
    expect(a.redeemLoginCode(first.code)).toBe(false);
    const late = a.issueLoginCode();
    advance(60_001);
    expect(a.redeemLoginCode(late.code)).toBe(false);
    expect(a.redeemLoginCode("never-issued")).toBe(false);
  });

  test("sessions and codes are bounded: the oldest go first", () => {
    const { a } = auth();
    const sessions = [a.openSession(), a.openSession(), a.openSession(), a.openSession()];
    expect(a.identify(`${sessions[0]!.session_id}.${sessions[0]!.secret}`)).toBe("ended");
    expect(a.identify(`${sessions[3]!.session_id}.${sessions[3]!.secret}`)).toEqual({ kind: "session", sessionId: sessions[3]!.session_id });
    const codes = [a.issueLoginCode(), a.issueLoginCode(), a.issueLoginCode()];
    expect(a.redeemLoginCode(codes[0]!.code)).toBe(false);
    expect(a.redeemLoginCode(codes[2]!.code)).toBe(true);
  });
});

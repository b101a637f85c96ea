import { describe, expect, test } from "vitest";
import { SecretScrubber } from "./secret-scrubber.js";

describe("SecretScrubber", () => {
  const secret = "sk-live/abc+def?&=0123";
  const bytes = Buffer.from(secret);

  test("idle until it learns a value; then every common form is replaced by the ref", () => {
    const s = new SecretScrubber();
    expect(s.idle).toBe(true);
    expect(s.scrub(`plain ${secret}`)).toBe(`plain ${secret}`);
    s.learn("openai", secret);
    expect(s.idle).toBe(false);
    const forms = [
      secret,
      bytes.toString("base64"),
      bytes.toString("base64").replace(/=+$/, ""),
      bytes.toString("base64url"),
      bytes.toString("hex"),
      bytes.toString("hex").toUpperCase(),
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
    ];
    for (const form of forms) expect(s.scrub(`a ${form} b`)).toBe("a [credential:openai] b");
  });

  test("values under 8 characters are left alone; forget stops scrubbing a value", () => {
    const s = new SecretScrubber();
    s.learn("short", "abc1234");
    expect(s.idle).toBe(true);
    expect(s.scrub("abc1234")).toBe("abc1234");
    s.learn("long", "abcd1234");
    expect(s.scrub("x abcd1234")).toBe("x [credential:long]");
    s.forget("long");
    expect(s.scrub("x abcd1234")).toBe("x abcd1234");
    expect(s.idle).toBe(true);
  });

  test("the longer of two overlapping secrets wins; a changed value replaces the old one", () => {
    const s = new SecretScrubber();
    s.learn("inner", "token-12345678");
    s.learn("outer", "Bearer token-12345678-extra");
    expect(s.scrub("Bearer token-12345678-extra and token-12345678")).toBe("[credential:outer] and [credential:inner]");
    s.learn("inner", "token-87654321");
    expect(s.scrub("token-12345678 token-87654321")).toBe("token-12345678 [credential:inner]");
  });

  test("scrubValue walks objects, arrays and errors, and returns the same object when nothing matched", () => {
    const s = new SecretScrubber();
    s.learn("k", secret);
    const clean = { a: 1, b: ["x"], c: { d: "y" } };
    expect(s.scrubValue(clean)).toBe(clean);
    expect(s.scrubValue({ a: [`v=${secret}`], n: 2, e: new Error(`boom ${secret}`) })).toEqual({
      a: ["v=[credential:k]"],
      n: 2,
      e: expect.stringContaining("boom [credential:k]"),
    });
  });
});

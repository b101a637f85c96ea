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

describe("SecretScrubber.scrubStreaming (a reply arriving in deltas)", () => {
  const secret = "sk-stream-0123456789abcdef";

  /** Feeds the deltas as a turn would and returns what was emitted, with the end's release. */
  function stream(s: SecretScrubber, deltas: string[]): { emitted: string[]; out: string } {
    const emitted: string[] = [];
    let held = "";
    for (const d of deltas) {
      const step = s.scrubStreaming(held + d);
      held = step.held;
      emitted.push(step.ready);
    }
    if (held) emitted.push(s.scrubCutOff(held));
    return { emitted, out: emitted.join("") };
  }

  test("a secret split across two deltas is scrubbed whole, and no emitted piece holds any of it", () => {
    const s = new SecretScrubber();
    s.learn("k", secret);
    const { emitted, out } = stream(s, ["the key is sk-str", "eam-0123456789abcdef, keep it"]);
    expect(out).toBe("the key is [credential:k], keep it");
    expect(emitted[0]).toBe("the key is ");
    expect(emitted.some((e) => e.includes("sk-str"))).toBe(false);
  });

  test("one character at a time, in every encoding the scrubber knows", () => {
    const s = new SecretScrubber();
    s.learn("k", secret);
    const bytes = Buffer.from(secret);
    for (const form of [secret, bytes.toString("base64"), bytes.toString("hex"), bytes.toString("hex").toUpperCase(), encodeURIComponent(secret)]) {
      const { emitted, out } = stream(s, Array.from(`<${form}>`));
      expect(out).toBe("<[credential:k]>");
      expect(emitted.join("|")).not.toContain(form.slice(0, 4));
    }
  });

  test("ordinary text is emitted at once; only a tail that starts a secret waits", () => {
    const s = new SecretScrubber();
    s.learn("k", secret);
    expect(s.scrubStreaming("plain words, nothing held\n")).toEqual({ ready: "plain words, nothing held\n", held: "" });
    expect(s.scrubStreaming("ends with sk-s")).toEqual({ ready: "ends with ", held: "sk-s" });
    // "sk-x" cannot start the secret, so it goes out.
    expect(s.scrubStreaming("ends with sk-x")).toEqual({ ready: "ends with sk-x", held: "" });
  });

  test("a stream that stops inside a secret: a long cut-off start becomes the ref, a short one is released", () => {
    const s = new SecretScrubber();
    s.learn("k", secret);
    expect(stream(s, ["token: sk-stream-0123"]).out).toBe("token: [credential:k]");
    expect(stream(s, ["lots of thing", "s"]).out).toBe("lots of things");
  });

  test("idle, it passes the text through untouched", () => {
    const s = new SecretScrubber();
    expect(s.scrubStreaming(`x ${secret}`)).toEqual({ ready: `x ${secret}`, held: "" });
  });
});

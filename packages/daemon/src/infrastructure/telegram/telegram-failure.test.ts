import { GrammyError, HttpError } from "grammy";
import { describe, expect, it } from "vitest";
import { PlatformFailure } from "../../application/channels/ports.js";
import { toPlatformFailure } from "./telegram-failure.js";

const TOKEN = "123456789:AAH-secret-token-value_xyz";
const URL_WITH_TOKEN = `https://api.telegram.org/bot${TOKEN}/sendMessage`;

function grammyError(error_code: number, description: string, parameters?: { retry_after?: number }) {
  return new GrammyError(`Call to 'sendMessage' failed!`, { ok: false, error_code, description, parameters }, "sendMessage", {
    chat_id: 1,
    text: `sent with ${TOKEN}`,
  });
}

function networkError(inner: Record<string, unknown>) {
  const e = Object.assign(new Error(`request to ${URL_WITH_TOKEN} failed, reason: boom`), inner);
  return new HttpError(`Network request for 'sendMessage' failed! request to ${URL_WITH_TOKEN} failed`, e);
}

function expectNoToken(f: PlatformFailure) {
  for (const s of [f.message, String(f), f.stack ?? "", JSON.stringify(f)]) {
    expect(s).not.toContain(TOKEN);
    expect(s).not.toContain("api.telegram.org");
  }
}

describe("toPlatformFailure", () => {
  const cases: Array<[string, unknown, PlatformFailure["kind"], RegExp]> = [
    ["401", grammyError(401, "Unauthorized"), "unauthorized", /401 Unauthorized.*revoked or mistyped/],
    ["409", grammyError(409, "Conflict: terminated by other getUpdates request"), "conflict", /Another program is polling this bot.*409/],
    ["429", grammyError(429, "Too Many Requests: retry after 7", { retry_after: 7 }), "rate_limited", /slow down for 7 s/],
    ["400", grammyError(400, "Bad Request: chat not found"), "rejected", /chat not found/],
    ["403", grammyError(403, "Forbidden: bot was blocked by the user"), "rejected", /blocked by the user/],
    ["502", grammyError(502, "Bad Gateway"), "unreachable", /502/],
    ["refused", networkError({ code: "ECONNREFUSED" }), "unreachable", /could not be reached: the connection was refused\. Check /],
    ["no address", networkError({ code: "ENOTFOUND" }), "unreachable", /could not look up its address\. Check .*proxy/],
    ["timeout", new HttpError("x", new Error(`Request to 'getUpdates' timed out after 90 seconds`)), "unreachable", /no answer within 90 s/],
    ["bad json", networkError({ type: "invalid-json" }), "unreachable", /not the Bot API/],
    ["unknown", new TypeError(`oops ${TOKEN}`), "unreachable", /unexpectedly \(TypeError\)/],
  ];

  for (const [name, err, kind, message] of cases) {
    it(`maps ${name} to ${kind} without the token`, () => {
      const f = toPlatformFailure(err, TOKEN, 90);
      expect(f).toBeInstanceOf(PlatformFailure);
      expect(f.kind).toBe(kind);
      expect(f.message).toMatch(message);
      expectNoToken(f);
    });
  }

  it("keeps the errno code out of the words, for details only", () => {
    const f = toPlatformFailure(networkError({ code: "ENOTFOUND" }), TOKEN, 90);
    expect(f.cause_code).toBe("ENOTFOUND");
    expect(f.message).not.toContain("ENOTFOUND");
    expect(f.message).toMatch(/\.$/);
  });

  it("carries retry_after as milliseconds", () => {
    expect(toPlatformFailure(grammyError(429, "Too Many Requests", { retry_after: 7 }), TOKEN, 90).retryAfterMs).toBe(7000);
  });

  it("scrubs the token even from Telegram's own description", () => {
    const f = toPlatformFailure(grammyError(400, `Bad Request: odd ${TOKEN}`), TOKEN, 90);
    expect(f.kind).toBe("rejected");
    expectNoToken(f);
  });
});

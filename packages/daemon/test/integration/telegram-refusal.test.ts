/**
 * Issue 22, J: adding a Telegram bot while this machine cannot reach Telegram used to end the
 * page's error in a raw `ENOTFOUND`. A real daemon checks the token against a Bot API root that
 * cannot be reached — a name under `.invalid` (never resolves, RFC 2606) and a closed port on
 * 127.0.0.1 — and must answer with a sentence saying what to check, the errno only in details.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "022-screens-true";
const TOKEN = "123456789:AAH-unreachable-check_token";
let t: TestDaemon | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const spare = http.createServer();
  await new Promise<void>((r) => spare.listen(0, "127.0.0.1", r));
  const port = (spare.address() as AddressInfo).port;
  await new Promise<void>((r) => spare.close(() => r()));
  return port;
}

async function addChannelWith(apiRoot: string) {
  t = await startTestDaemon({ telegram: { apiRoot, pollTimeoutSeconds: 5 } });
  expect((await t.api.put("/credentials/tg-bot", { secret: TOKEN })).status).toBeLessThan(300);
  return t.api.post("/channels", { kind: "telegram", name: "phone", bot_token_ref: "tg-bot", default_agent: "scripted" });
}

describe("a Telegram token check that cannot reach Telegram", { timeout: 30_000 }, () => {
  acceptance(SPEC, "a Telegram token check that cannot reach Telegram says what to check in a sentence, never a raw error code", async () => {
    for (const [apiRoot, cause] of [
      ["http://coffer-bot-api.invalid", /^(ENOTFOUND|EAI_AGAIN)$/],
      [`http://127.0.0.1:${await closedPort()}`, /^ECONNREFUSED$/],
    ] as const) {
      const res = await addChannelWith(apiRoot);
      expect([res.status, res.body.error.code]).toEqual([502, "CHANNEL_UNREACHABLE"]);
      const message: string = res.body.error.message;
      // A sentence: capitalised, ends with a full stop, says what to check.
      expect(message).toMatch(/^[A-Z].*\.$/);
      expect(message).toMatch(/Check this machine's network connection and any proxy/);
      expect(message).toMatch(/nothing was stored/);
      // The low-level code is in details only: never in the words, least of all at their end.
      expect(message).not.toMatch(/\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+)\b/);
      expect(res.body.error.details).toMatchObject({ ref: "tg-bot" });
      expect(res.body.error.details.cause).toMatch(cause);
      // Neither the token nor the token-bearing request URL.
      expect(JSON.stringify(res.body)).not.toContain(TOKEN);
      expect(JSON.stringify(res.body)).not.toContain("/bot");
      expect((await t!.api.get("/channels")).body.channels).toEqual([]);
      await t!.close();
      t = null;
    }
  });
});

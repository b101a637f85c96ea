/**
 * The bot token is in every Telegram URL (`/bot<token>/<method>`): it must never reach a log
 * line, an error, the audit log, a REST response or the data dir (where only the sealed
 * credential lives). The channel is driven through every path that touches the token — add,
 * a refused token, turns, 429s, 5xx, dropped connections, a revoked token — with the log at
 * debug level; then the data dir, the log and every response are scanned for the token in
 * plain, hex, base64 and URL-encoded form.
 */
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { acceptance } from "../support/acceptance.js";
import { BOT, OWNER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { makeHome } from "../support/test-daemon.js";
import { script } from "../support/scripted-agent.js";

const REFUSED = "5151:AAF-refused-token-planted-QwErTy1234";

function forms(secret: string): string[] {
  const b = Buffer.from(secret);
  return [secret, b.toString("hex"), b.toString("base64"), b.toString("base64url"), encodeURIComponent(secret), secret.split(":")[1]!];
}

function scan(dir: string, needles: string[], hits: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const entry = statSync(path);
    if (entry.isDirectory()) {
      scan(path, needles, hits);
      continue;
    }
    if (!entry.isFile()) continue; // daemon.sock: a socket holds no bytes at rest
    const bytes = readFileSync(path);
    for (const n of needles) if (bytes.includes(Buffer.from(n))) hits.push(`${name}: ${n.slice(0, 10)}…`);
  }
  return hits;
}

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

acceptance("013-telegram-channel", "the bot token never reaches the data dir, a log line or a response", async () => {
  const home = await makeHome();
  const log = join(home, "daemon.log");
  rig = await startChannelRig({ home, logger: consoleLogger("debug", (line) => appendFileSync(log, line)) });
  const { t, tg } = rig;
  const responses: unknown[] = [];
  const keep = async <T>(res: Promise<T>) => {
    const r = await res;
    responses.push(r);
    return r;
  };
  await keep(t.api.put("/credentials/refused", { secret: REFUSED }));
  await keep(t.api.post("/channels", { kind: "telegram", name: "refused", bot_token_ref: "refused", default_agent: "scripted" }));

  rig.say(script({ tool: { id: "t", name: "Bash", input: { command: "ls" }, output: "ok" } }, { text: "done one" }));
  await rig.botSays((m) => m.text === "done one");
  tg.failNext("sendMessage", 1, { status: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
  tg.failNext("sendMessage", 2, { status: 502, description: "Bad Gateway" });
  tg.dropNext("sendMessage", 1);
  rig.say(script({ text: "done two" }));
  await rig.botSays((m) => m.text === "done two");
  tg.dropNext("getUpdates", 1);
  tg.failAll("getUpdates", { status: 401, description: "Unauthorized" });
  tg.userSays({ chatId: OWNER.id, from: OWNER, text: "wake" });
  await tg.waitFor((f) => f.calls("getUpdates", { ok: false }).some((c) => c.status === 401));
  for (;;) {
    const c = await keep(t.api.get(`/channels/${rig.channelId}`));
    if ((c as { body: { status: { state: string } } }).body.status.state === "stopped") break;
    await new Promise((r) => setImmediate(r));
  }
  await keep(t.api.get("/channels"));
  await keep(t.api.get("/audit"));
  await keep(t.api.get(`/channels/${rig.channelId}`));

  const needles = [...forms(BOT.token), ...forms(REFUSED)];
  const inResponses = needles.filter((n) => JSON.stringify(responses).includes(n));
  expect(inResponses).toEqual([]);
  // The token really was used (so the scan is not vacuous) and the log really was written.
  expect(tg.sent.some((c) => c.token === BOT.token)).toBe(true);
  expect(readFileSync(log, "utf8")).toMatch(/channel (poll failed|stopped)/);
  expect(scan(home, needles)).toEqual([]);
  await t.stop();
  expect(scan(home, needles)).toEqual([]);
}, 30_000);

test("the scanner finds the token when it is there (control)", async () => {
  // Control: the scanner does find the token when it is there (so the scan above can fail).
  const dir = await makeHome();
  appendFileSync(join(dir, "leak.log"), `GET /bot${encodeURIComponent(BOT.token)}/getMe\n`);
  appendFileSync(join(dir, "b64.bin"), Buffer.from(BOT.token).toString("base64"));
  expect(scan(dir, forms(BOT.token)).length).toBeGreaterThanOrEqual(2);
});

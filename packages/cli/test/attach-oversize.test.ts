/**
 * A 60 MB file is refused with a clear message on every surface (issue 25), one test across the
 * surfaces this branch has, each over its real path:
 *  - the daemon: POST /attachments answers 413 ATTACHMENT_TOO_LARGE naming the cap, keeps nothing;
 *  - the CLI: the built `coffer chat send --attach` refuses in one line before any byte goes up;
 *  - Telegram: the Bot API connection (grammY against the fake Bot API) refuses to fetch a file
 *    over the Bot API's 20 MB getFile limit. The line the phone then gets is the inbound-files
 *    part's; the page's refusal is the composer's e2e.
 */
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, readdirSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PlatformFailure } from "../../daemon/src/application/channels/ports.js";
import { TelegramPlatform } from "../../daemon/src/infrastructure/telegram/telegram-platform.js";
import { FakeTelegram } from "../../daemon/test/fakes/fake-telegram.js";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

const MB = 1024 * 1024;
const SIXTY = 60 * MB;

let t: TestDaemon;
beforeAll(async () => {
  // The default cap (COFFER_ATTACHMENT_MAX_MB unset: 50 MB), as the owner runs it.
  t = await startTestDaemon();
});
afterAll(() => t.close());

/** Every file under the data dir's attachments folder (temp uploads included). */
function stored(home: string): string[] {
  const root = join(home, "attachments");
  return existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
}

/** A 60 MB file on disk without writing 60 MB (sparse): its size is what the CLI checks. */
function sixtyMegabytes(): string {
  const path = join(mkdtempSync(join(tmpdir(), "coffer-oversize-")), "recording.mov");
  const fd = openSync(path, "w");
  ftruncateSync(fd, SIXTY);
  closeSync(fd);
  return path;
}

describe("oversize on every surface", () => {
  acceptance(
    "025-attachments",
    "a 60 MB file is refused with a clear message on every surface",
    async () => {
      expect((await t.api.get("/attachments/limits")).body).toEqual({ max_bytes: 50 * MB });

      // The daemon (what the page's and any client's upload meets).
      const res = await fetch(`${t.daemon.url}/api/v1/attachments?name=recording.mov`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.daemon.token}`, "content-type": "video/quicktime" },
        body: Buffer.alloc(SIXTY, 1),
      });
      expect(res.status).toBe(413);
      const { error } = (await res.json()) as { error: { code: string; message: string; details: { limit_bytes: number } } };
      expect(error.code).toBe("ATTACHMENT_TOO_LARGE");
      expect(error.message).toContain("50 MB");
      expect(error.message).toContain("COFFER_ATTACHMENT_MAX_MB");
      expect(error.details.limit_bytes).toBe(50 * MB);
      expect(stored(t.home)).toEqual([]);

      // The CLI: one line naming the file, its size and the cap; nothing uploaded, nothing sent.
      const id = await t.conversation();
      const cli = await cofferAgainst(t, ["chat", "send", id, "--attach", sixtyMegabytes(), "here is the recording"]);
      expect(cli.code).not.toBe(0);
      expect(cli.stderr.trim().split("\n")).toHaveLength(1);
      expect(cli.stderr).toContain("ATTACHMENT_TOO_LARGE");
      expect(cli.stderr).toContain("recording.mov is 60.0 MB; the daemon takes files up to 50.0 MB");
      expect(cli.stderr).toContain("nothing was sent");
      expect((await t.api.get("/system/stats")).body.attachments).toEqual({ count: 0, files: 0, bytes: 0 });
      expect((await t.api.get(`/chat/conversations/${id}/messages`)).body.messages).toEqual([]);

      // Telegram: a 60 MB document is over the Bot API's download limit; fetching it is refused
      // (the fake answers getFile as the Bot API does), never quoting the bot's token.
      const tg = await FakeTelegram.start();
      try {
        const token = "6060:AAE-fake-token-oversize";
        tg.addBot({ token, id: 6060, username: "coffer_oversize_bot", first_name: "Coffer" });
        const file = tg.addFile(Buffer.alloc(1), { size: SIXTY });
        const bot = new TelegramPlatform({ apiRoot: tg.apiRoot, retry: { maxRetryAttempts: 0, maxDelaySeconds: 1, backoffSeconds: 0.01 } }).connect(token);
        const caught = await bot.downloadFile(file.file_id).catch((e: unknown) => e);
        expect(caught).toBeInstanceOf(PlatformFailure);
        expect((caught as PlatformFailure).kind).toBe("rejected");
        expect((caught as PlatformFailure).message).toMatch(/too big/);
        expect(String((caught as PlatformFailure).message)).not.toContain(token);
        expect(tg.calls("file")).toHaveLength(0);
      } finally {
        await tg.close();
      }
    },
    60_000,
  );

  test("the daemon refuses a declared 60 MB upload before reading its body: the answer comes while the client still holds the rest", async () => {
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.request(
        `${t.daemon.url}/api/v1/attachments?name=recording.mov`,
        { method: "POST", headers: { authorization: `Bearer ${t.daemon.token}`, "content-type": "video/quicktime", "content-length": String(SIXTY) } },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (c: string) => (text += c));
          // The body was never finished: only an answer given before reading it can arrive.
          res.on("end", () => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          });
        },
      );
      req.on("error", reject);
      req.write(Buffer.alloc(64 * 1024, 1));
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe("ATTACHMENT_TOO_LARGE");
    expect(answer.body.error.details.limit_bytes).toBe(50 * MB);
    expect(stored(t.home)).toEqual([]);
  });
});

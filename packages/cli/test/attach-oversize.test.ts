/**
 * A 60 MB file is refused with a clear message on every surface (issue 25), each over its real
 * path, at the daemon's DEFAULT cap (50 MB):
 *  - the daemon: POST /attachments answers 413 ATTACHMENT_TOO_LARGE naming the cap, keeps nothing;
 *  - the CLI: the built `coffer chat send --attach` refuses in one line before any byte goes up;
 *  - the phone: a 60 MB document from the paired owner (grammY against the fake Bot API, the
 *    update saying its size) gets the cap's one line, and nothing is fetched or sent;
 *  - the page: e2e/composer-oversize.e2e.ts, tagged with the same scenario (a browser is needed;
 *    scripts/verify-acceptance.mjs counts a scenario proved by any passing tagged test, and CI
 *    fails on a failing e2e report, so both halves must pass).
 */
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, readdirSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeTelegram } from "../../daemon/test/fakes/fake-telegram.js";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { BOT, FAST_CHANNEL, OWNER, attachChannelRig, channelOptions, type ChannelRig } from "../../daemon/test/support/channel-rig.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

const MB = 1024 * 1024;
const SIXTY = 60 * MB;

let t: TestDaemon;
let phone: ChannelRig;
beforeAll(async () => {
  // The default cap (COFFER_ATTACHMENT_MAX_MB unset: 50 MB), as the owner runs it, with a
  // Telegram channel paired to the owner on the fake Bot API.
  const tg = await FakeTelegram.start();
  tg.addBot(BOT);
  t = await startTestDaemon({ ...FAST_CHANNEL, ...channelOptions(tg) });
  phone = await attachChannelRig(tg, t);
});
afterAll(() => phone?.close());

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

      // The phone: a 60 MB document, its size in the update. The line names the file, its size
      // and the cap, and does not send the owner to the page or the CLI (they refuse it too).
      const doc = phone.tg.addFile(Buffer.alloc(1), { size: SIXTY });
      phone.tg.userSays({ chatId: OWNER.id, from: OWNER, text: "here is the recording", media: { document: { ...doc, file_name: "recording.mov", mime_type: "video/quicktime" } } });
      const line = await phone.botSays((m) => m.text.includes("recording.mov"));
      expect(line.text).toBe(
        "⚠️ “recording.mov” (60 MB) is over the 50 MB limit for attached files (COFFER_ATTACHMENT_MAX_MB), so nothing was sent. Send a smaller file, or put it in the workspace and name its path.",
      );
      expect(phone.tg.calls("getFile")).toHaveLength(0);
      expect(phone.tg.calls("file")).toHaveLength(0);
      // Nothing sent: a text after it is the chat's only message, and nothing was stored.
      phone.say("probe");
      await phone.botSays((m) => m.text.includes("echo: probe"));
      const texts: string[] = [];
      for (const c of (await t.api.get("/chat/conversations")).body.conversations as { id: string }[]) {
        const messages = (await t.api.get(`/chat/conversations/${c.id}/messages`)).body.messages as { role: string; content: { text?: string }[] }[];
        texts.push(...messages.filter((m) => m.role === "user").map((m) => m.content.map((b) => b.text ?? "").join("")));
      }
      expect(texts).toEqual(["probe"]);
      expect((await t.api.get("/system/stats")).body.attachments).toEqual({ count: 0, files: 0, bytes: 0 });
      expect(stored(t.home)).toEqual([]);
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

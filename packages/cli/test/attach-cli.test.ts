import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferWatching } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ attachmentMaxBytes: 1024 * 1024 });
});
afterAll(() => t.close());

const coffer = (args: string[]) => cofferWatching(t, args);
const files = mkdtempSync(join(tmpdir(), "coffer-attach-"));

describe("coffer chat send --attach", () => {
  acceptance("025-attachments", "coffer chat send --attach uploads each file then sends the message carrying them", async () => {
    const id = await t.conversation();
    writeFileSync(join(files, "shot.png"), Buffer.from("89504e470d0a1a0a", "hex"));
    writeFileSync(join(files, "notes.md"), "# notes\n");
    const r = await coffer(["chat", "send", id, "--attach", join(files, "shot.png"), "--attach", join(files, "notes.md"), "look", "at", "these"]);
    expect(r.code).toBe(0);
    const user = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages.find((m: any) => m.role === "user");
    expect(user.content).toEqual([{ type: "text", text: "look at these" }]);
    expect(user.attachments.map((a: any) => [a.name, a.media_type, a.size])).toEqual([
      ["shot.png", "image/png", 8],
      ["notes.md", "text/markdown", 8],
    ]);
    expect(t.scripted.turns.at(-1)!.text).toContain("- notes.md (text/markdown, 8 bytes): ");
  });

  test("a file over the cap or one that cannot be read stops the send with one line, nothing sent", async () => {
    const id = await t.conversation();
    writeFileSync(join(files, "big.bin"), Buffer.alloc(1024 * 1024 + 1));
    const big = await coffer(["chat", "send", id, "--attach", join(files, "big.bin"), "hi"]);
    expect(big.code).not.toBe(0);
    expect(big.stderr).toContain("ATTACHMENT_TOO_LARGE");
    // Refused by the CLI's own pre-check (GET /attachments/limits), before any byte went up.
    expect(big.stderr).toContain("big.bin is 1.0 MB; the daemon takes files up to 1.0 MB");
    expect(big.stderr.trim().split("\n")).toHaveLength(1);
    const missing = await coffer(["chat", "send", id, "--attach", join(files, "nope.txt"), "hi"]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("cannot read");
    expect((await t.api.get(`/chat/conversations/${id}/messages`)).body.messages).toEqual([]);
  });
});

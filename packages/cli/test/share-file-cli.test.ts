import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { dispositionName } from "../src/client.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst, cofferWatching } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const PDF = "%PDF-1.4 the agent's report";
const out = mkdtempSync(join(tmpdir(), "coffer-get-"));

/** The agent shares `path` while its turn waits on a gate: coffer__share_file as the gateway runs it for this conversation. */
async function shareDuringTurn(id: string, path: string): Promise<string> {
  const tool = t.daemon.builtinTools.get("coffer__share_file")!;
  const outcome = await tool.run({ path, caption: "the report" }, { caller: "test", principal: { kind: "agent", agent: "scripted", conversationId: id } });
  if (!outcome.ok) throw new Error(outcome.error);
  return (outcome.value as { attachment_id: string }).attachment_id;
}

describe("a file the agent shared, on the CLI", () => {
  test("the live transcript and chat show print its name, size and the command that gets it; attachment get saves it, never overwriting unasked", async () => {
    const id = await t.conversation();
    mkdirSync(t.workspace, { recursive: true }); // the scripted agent runs nowhere: nothing made it yet
    writeFileSync(join(t.workspace, "report.pdf"), PDF);
    const sub = await t.subscribe(id);
    let attachmentId = "";
    const sending = cofferWatching(t, ["chat", "send", id, script({ text: "here it is\n" }, { gate: "share-cli" }, { text: "done" })]);
    await sub.waitFor((e) => e.type === "text_delta");
    attachmentId = await shareDuringTurn(id, "report.pdf");
    await sub.waitFor((e) => e.type === "file_shared");
    t.scripted.gates.open("share-cli");
    const sent = await sending;
    sub.close();
    expect(sent.code).toBe(0);
    const line = `📎 report.pdf (${PDF.length} B) · `;
    expect(sent.stdout).toContain(`${line}`);
    expect(sent.stdout).toContain(`attachment get ${attachmentId} — the report`);

    // The stored thread says what the live line said, the agent's line for the file included.
    const shown = await cofferAgainst(t, ["chat", "show", id]);
    expect(shown.stdout).toMatch(new RegExp(`── assistant[^\\n]*\\nhere it is\\ndone\\n  📎 report\\.pdf \\(${PDF.length} B\\) · .*attachment get ${attachmentId} — the report\\n`));

    const target = join(out, "copy.pdf");
    const got = await cofferAgainst(t, ["attachment", "get", attachmentId, "-o", target]);
    expect(got).toMatchObject({ code: 0, stdout: `saved ${target} (${PDF.length} B)\n` });
    expect(readFileSync(target, "utf8")).toBe(PDF);

    writeFileSync(target, "mine");
    const again = await cofferAgainst(t, ["attachment", "get", attachmentId, "-o", target]);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain("exists; pass --force to overwrite it");
    expect(readFileSync(target, "utf8")).toBe("mine");
    expect((await cofferAgainst(t, ["attachment", "get", attachmentId, "-o", target, "--force"])).code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe(PDF);
  });

  test("an unknown id is a not-found error with its exit status, and nothing is written", async () => {
    const target = join(out, "nothing.bin");
    const r = await cofferAgainst(t, ["attachment", "get", "no-such-attachment", "-o", target]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("ATTACHMENT_NOT_FOUND");
    expect(() => readFileSync(target)).toThrow();
  });
});

describe("the name attachment get saves under by default", () => {
  test("is the exact name the daemon sends, never a path, with the ASCII fallback when the exact one is unreadable", () => {
    expect(dispositionName(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe("résumé.pdf");
    expect(dispositionName(`attachment; filename="../../.bashrc"; filename*=UTF-8''..%2F..%2F.bashrc`)).toBe(".bashrc");
    expect(dispositionName(`attachment; filename="plain.txt"; filename*=UTF-8''%E0%A4%A`)).toBe("plain.txt");
    expect(dispositionName(`attachment; filename="..";`)).toBeNull();
    expect(dispositionName(undefined)).toBeNull();
  });
});

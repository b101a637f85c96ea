import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { underHome } from "./kept-session-path.js";
import { FileSessionCopies } from "./session-copies.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coffer-copies-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("Coffer's copies of the agents' session files", () => {
  test("a copy goes back only for its own session, whole, and never over a file the CLI wrote meanwhile", async () => {
    const copies = new FileSessionCopies(join(root, "agent-sessions"));
    const home = join(root, "cli-home");
    const source = join(root, "s1.jsonl");
    await writeFile(source, '{"line":1}\n');
    expect(await copies.save("codex", "conv1", { sessionId: "s1", relative: "sessions/2026/12/04/rollout-s1.jsonl" }, source)).toBe(true);
    const target = (rel: string) => underHome(home, rel);

    expect(await copies.restore("codex", "conv1", "another-session", target)).toBe(false);
    expect(await copies.restore("codex", "conv1", "s1", target)).toBe(true);
    const back = join(home, "sessions/2026/12/04/rollout-s1.jsonl");
    expect(await readFile(back, "utf8")).toBe('{"line":1}\n');
    expect((await stat(back)).mode & 0o777).toBe(0o600);

    // The CLI wrote the file again: ours is older and is not written over it.
    await writeFile(back, '{"line":2}\n');
    expect(await copies.restore("codex", "conv1", "s1", target)).toBe(true);
    expect(await readFile(back, "utf8")).toBe('{"line":2}\n');
  });

  test("a copy whose bytes no longer match its sha256 is corrupt and never put back", async () => {
    const copies = new FileSessionCopies(join(root, "agent-sessions"));
    const source = join(root, "s1.jsonl");
    await writeFile(source, '{"line":1}\n');
    await copies.save("claude_code", "conv1", { sessionId: "s1", relative: "projects/p/s1.jsonl" }, source);
    await writeFile(join(root, "agent-sessions/claude_code/conv1/session.jsonl"), '{"line":X}\n');
    expect(await copies.restore("claude_code", "conv1", "s1", (rel) => underHome(join(root, "home"), rel))).toBe(false);
    await expect(stat(join(root, "home/projects/p/s1.jsonl"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("a save after the conversation was removed brings nothing back; a missing source keeps the last copy", async () => {
    const copies = new FileSessionCopies(join(root, "agent-sessions"));
    const source = join(root, "s1.jsonl");
    await writeFile(source, "{}\n");
    expect(await copies.save("codex", "conv1", { sessionId: "s1", relative: "sessions/a.jsonl" }, join(root, "gone.jsonl"))).toBe(false);
    expect(await copies.save("codex", "conv1", { sessionId: "s1", relative: "sessions/a.jsonl" }, source)).toBe(true);
    await copies.remove("codex", "conv1");
    expect(await copies.save("codex", "conv1", { sessionId: "s1", relative: "sessions/a.jsonl" }, source)).toBe(false);
    await expect(stat(join(root, "agent-sessions/codex/conv1"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("a copy is scrubbed of known credential values, and one made after the daemon closed is refused", async () => {
    const copies = new FileSessionCopies(join(root, "agent-sessions"), (text) => text.replaceAll("sk-live-123456", "[credential:api]"));
    const source = join(root, "s1.jsonl");
    await writeFile(source, '{"text":"the key is sk-live-123456"}\n');
    expect(await copies.save("claude_code", "conv1", { sessionId: "s1", relative: "projects/p/s1.jsonl" }, source)).toBe(true);
    const kept = await readFile(join(root, "agent-sessions/claude_code/conv1/session.jsonl"), "utf8");
    expect(kept).toBe('{"text":"the key is [credential:api]"}\n');
    // Still whole: it goes back (scrubbed) where the CLI reads it.
    expect(await copies.restore("claude_code", "conv1", "s1", (rel) => underHome(join(root, "home"), rel))).toBe(true);
    expect(await readFile(join(root, "home/projects/p/s1.jsonl"), "utf8")).toBe(kept);

    await copies.close();
    await writeFile(source, '{"text":"later"}\n');
    expect(await copies.save("claude_code", "conv1", { sessionId: "s1", relative: "projects/p/s1.jsonl" }, source)).toBe(false);
    expect(await readFile(join(root, "agent-sessions/claude_code/conv1/session.jsonl"), "utf8")).toBe(kept);
  });

  test("a stored path may not leave the CLI's home, and names may not leave the store", async () => {
    expect(underHome("/h", "../etc/passwd")).toBeNull();
    expect(underHome("/h", "/etc/passwd")).toBeNull();
    expect(underHome("/h", "projects/../../x")).toBeNull();
    expect(underHome("/h", "projects/p/s.jsonl")).toBe("/h/projects/p/s.jsonl");
    const copies = new FileSessionCopies(join(root, "agent-sessions"));
    await expect(copies.remove("codex", "../escape")).rejects.toThrow(/unsafe/);
  });
});

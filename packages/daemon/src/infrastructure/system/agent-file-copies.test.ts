import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { FileAgentFileCopies, safeFileName } from "./agent-file-copies.js";

describe("the agents' read-only copies", () => {
  test("a name never leaves its folder nor hides itself", () => {
    expect(safeFileName("../../etc/passwd")).toBe("_.._etc_passwd");
    expect(safeFileName(".env")).toBe("env");
    expect(safeFileName("..")).toBe("file");
    expect(safeFileName("a\nb\\c.txt")).toBe("a_b_c.txt");
    expect(safeFileName("x".repeat(300))).toHaveLength(120);
  });

  test("a copy is 0400 in 0700 folders, made once, refused for a foreign id, and swept when its conversation is gone", () => {
    const home = mkdtempSync(join(tmpdir(), "coffer-agent-files-"));
    const source = join(home, "blob");
    writeFileSync(source, "hello", { mode: 0o600 });
    const copies = new FileAgentFileCopies(join(home, "agent-files"));
    const path = copies.place("conv-1", "att-1", "notes.txt", source);
    expect(path).toBe(join(home, "agent-files", "conv-1", "att-1", "notes.txt"));
    expect(readFileSync(path, "utf8")).toBe("hello");
    expect(statSync(path).mode & 0o777).toBe(0o400);
    expect(statSync(join(home, "agent-files", "conv-1", "att-1")).mode & 0o777).toBe(0o700);
    // The store's own file keeps its mode (a copy, not a shared inode).
    expect(statSync(source).mode & 0o777).toBe(0o600);
    expect(copies.place("conv-1", "att-1", "notes.txt", source)).toBe(path);
    expect(() => copies.place("../x", "att-1", "n", source)).toThrow();
    copies.place("conv-2", "att-2", "b.txt", source);
    expect(copies.sweepOrphans((id) => id === "conv-1")).toBe(1);
    expect(existsSync(join(home, "agent-files", "conv-2"))).toBe(false);
    copies.removeConversation("conv-1");
    expect(existsSync(join(home, "agent-files", "conv-1"))).toBe(false);
  });
});

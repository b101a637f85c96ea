import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ShareRoots } from "../../application/attachments/share-file-ports.js";
import { FsShareableFiles } from "./shareable-files.js";

// Real files in a temporary folder: the gate is about what the file system says, so nothing is mocked.
describe("shareable files (coffer__share_file's gate)", () => {
  let base: string;
  let roots: ShareRoots;
  const files = new FsShareableFiles();

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "coffer-share-"));
    const workspace = join(base, "work");
    mkdirSync(join(workspace, "out"), { recursive: true });
    mkdirSync(join(workspace, ".coffer-data"));
    mkdirSync(join(base, "agent-files"));
    writeFileSync(join(workspace, "out", "chart.png"), Buffer.alloc(64, 1));
    writeFileSync(join(workspace, "big.bin"), Buffer.alloc(2048, 1));
    writeFileSync(join(workspace, ".coffer-data", "token"), "secret");
    writeFileSync(join(base, "agent-files", "note.txt"), "hi");
    writeFileSync(join(base, "outside.txt"), "not yours");
    symlinkSync(join(base, "outside.txt"), join(workspace, "escape.txt"));
    symlinkSync(join(workspace, "out", "chart.png"), join(workspace, "alias.png"));
    roots = { workspace, agentFiles: join(base, "agent-files"), dataDir: join(workspace, ".coffer-data"), maxBytes: 1024 };
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  test("a file in the workspace, relative or absolute or through an inner link, is accepted with its real path", () => {
    const real = files.check("out/chart.png", roots);
    expect(real).toMatchObject({ ok: true, name: "chart.png", size: 64 });
    expect(files.check(join(roots.workspace, "out", "chart.png"), roots)).toEqual(real);
    expect(files.check("alias.png", roots)).toEqual(real);
    expect(files.check(join(roots.agentFiles!, "note.txt"), roots)).toMatchObject({ ok: true, name: "note.txt", size: 2 });
  });

  test("each refusal names its reason", () => {
    expect(files.check("../outside.txt", roots)).toEqual({ ok: false, reason: "outside_workspace" });
    expect(files.check("/etc/hostname", roots)).toMatchObject({ ok: false });
    expect(files.check("escape.txt", roots)).toEqual({ ok: false, reason: "symlink_escape" });
    expect(files.check(".coffer-data/token", roots)).toEqual({ ok: false, reason: "data_dir" });
    expect(files.check("out", roots)).toEqual({ ok: false, reason: "not_a_file" });
    expect(files.check("big.bin", roots)).toEqual({ ok: false, reason: "too_large" });
    expect(files.check("missing.txt", roots)).toEqual({ ok: false, reason: "not_found" });
  });

  test("a device file is refused even when the workspace is the root of the file system", () => {
    expect(files.check("/dev/null", { ...roots, workspace: "/" })).toEqual({ ok: false, reason: "not_a_file" });
  });
});

import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { toHttpError } from "../../http/errors.js";
import { nodeIo, type PrivateFileIo } from "../system/private-files.js";
import { MasterKeyFile } from "./master-key-file.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "coffer-key-"));
  dirs.push(dir);
  return dir;
}

/**
 * A disk that fills up after the temp file is created. Injected because a real full disk
 * (a tiny tmpfs) needs mount rights this test environment does not have; everything else is
 * the real file system.
 */
const fullDisk = (code: string): PrivateFileIo => ({
  ...nodeIo,
  writeSync: () => {
    throw Object.assign(new Error(`${code}: no space left on device, write`), { code });
  },
});

test("a full disk while creating the key leaves no key (no 0-byte file, no temp file) and answers 507 STORAGE_FULL", () => {
  const dir = tempDir();
  const keyPath = join(dir, "credentials.key");
  let thrown: unknown;
  try {
    new MasterKeyFile(keyPath, fullDisk("ENOSPC")).get();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toMatchObject({ code: "STORAGE_FULL", message: expect.stringContaining("disk holding the data dir is full") });
  expect(toHttpError(thrown)).toMatchObject({ status: 507, unexpected: false, body: { error: { code: "STORAGE_FULL" } } });
  expect(readdirSync(dir)).toEqual([]);

  // Once space is back the same path works, and the key is whole and private.
  const key = new MasterKeyFile(keyPath).get();
  expect(key.key).toHaveLength(32);
  expect(statSync(keyPath).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir)).toEqual(["credentials.key"]);
});

test("two writers racing for the first key agree on one: the later one uses the file already there", () => {
  const dir = tempDir();
  const keyPath = join(dir, "credentials.key");
  const first = new MasterKeyFile(keyPath);
  let firstId = "";
  // The first writer lands its key just before the second moves its own temp file into place.
  const racing: PrivateFileIo = {
    ...nodeIo,
    linkSync: (from, to) => {
      firstId = first.get().id;
      nodeIo.linkSync(from, to);
    },
  };
  expect(new MasterKeyFile(keyPath, racing).get().id).toBe(firstId);
  expect(new MasterKeyFile(keyPath).get().id).toBe(firstId);
  expect(readdirSync(dir)).toEqual(["credentials.key"]);
});

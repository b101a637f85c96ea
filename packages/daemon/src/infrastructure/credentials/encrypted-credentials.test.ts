import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { SqliteCredentialRows } from "../sqlite/stores/sqlite-credential-rows.js";
import { openDatabase } from "../sqlite/database.js";
import { EncryptedCredentials } from "./encrypted-credentials.js";
import { MasterKeyFile } from "./master-key-file.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "coffer-cred-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "coffer.db"));
  const keyPath = join(dir, "credentials.key");
  return { db, keyPath, creds: new EncryptedCredentials(new SqliteCredentialRows(db), new MasterKeyFile(keyPath)) };
}

test("seals with AES-256-GCM and opens in memory; the key file is created on first use, mode 0600", () => {
  const { db, keyPath, creds } = setup();
  creds.put("k", "the-secret", 1);
  expect(statSync(keyPath).mode & 0o777).toBe(0o600);
  expect(creds.resolve("k")).toBe("the-secret");
  const row = db.prepare("SELECT nonce, ciphertext, tag FROM credentials").get() as { nonce: Buffer; ciphertext: Buffer; tag: Buffer };
  expect([row.nonce.length, row.tag.length]).toEqual([12, 16]);
  expect(row.ciphertext.toString("utf8")).not.toContain("the-secret");
  // A fresh nonce per seal: the same secret never seals to the same bytes.
  creds.put("k2", "the-secret", 1);
  const rows = db.prepare("SELECT ciphertext FROM credentials").all() as { ciphertext: Buffer }[];
  expect(rows[0]!.ciphertext.equals(rows[1]!.ciphertext)).toBe(false);
  db.close();
});

test("a missing ref, a tampered row, a row moved to another ref and a replaced key are refused, never misread", () => {
  const { db, keyPath, creds } = setup();
  expect(() => creds.resolve("nope")).toThrow(expect.objectContaining({ code: "CREDENTIAL_NOT_FOUND" }));
  creds.put("a", "alpha", 1);
  db.prepare("UPDATE credentials SET ciphertext = ? WHERE ref = 'a'").run(Buffer.from("garbage"));
  expect(() => creds.resolve("a")).toThrow(expect.objectContaining({ code: "CREDENTIAL_UNREADABLE" }));

  creds.put("b", "bravo", 1);
  db.prepare("INSERT INTO credentials SELECT 'c', nonce, ciphertext, tag, key_id, created_at, updated_at FROM credentials WHERE ref = 'b'").run();
  expect(() => creds.resolve("c")).toThrow(/failed authentication/);

  writeFileSync(keyPath, `${Buffer.alloc(32, 7).toString("base64")}\n`);
  const other = new EncryptedCredentials(new SqliteCredentialRows(db), new MasterKeyFile(keyPath));
  expect(() => other.resolve("b")).toThrow(/sealed with another master key/);
  db.close();
});

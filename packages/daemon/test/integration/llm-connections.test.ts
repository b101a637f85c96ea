import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>) => t.api.post("/connections", body);
const defaults = async () => (await t.api.get("/connections")).body.connections.filter((c: any) => c.internal_default).map((c: any) => c.name);

describe("credentials API (write-only)", () => {
  test("set, list refs with timestamps, replace, remove; the key file appears on first use, mode 0600", async () => {
    const keyFile = join(t.home, "credentials.key");
    expect(existsSync(keyFile)).toBe(false);
    const put = await t.api.put("/credentials/openai.main", { secret: "s3cret-value" });
    expect(put).toMatchObject({ status: 200, body: { ref: "openai.main" } });
    expect(Object.keys(put.body).sort()).toEqual(["created_at", "ref", "updated_at"]);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    expect((await t.api.put("/credentials/openai.main", { secret: "rotated" })).body.created_at).toBe(put.body.created_at);
    expect((await t.api.get("/credentials")).body).toEqual({ credentials: [{ ref: "openai.main", created_at: put.body.created_at, updated_at: expect.any(String) }] });

    const db = new Database(join(t.home, "coffer.db"), { readonly: true });
    const row = db.prepare("SELECT * FROM credentials WHERE ref = 'openai.main'").get() as Record<string, unknown>;
    db.close();
    expect(Object.keys(row).sort()).toEqual(["ciphertext", "created_at", "key_id", "nonce", "ref", "tag", "updated_at"]);
    expect(Buffer.from(row.ciphertext as Buffer).toString("utf8")).not.toContain("rotated");

    expect((await t.api.delete("/credentials/openai.main")).status).toBe(204);
    expect(await t.api.delete("/credentials/openai.main")).toMatchObject({ status: 404, body: { error: { code: "CREDENTIAL_NOT_FOUND" } } });
  });

  test("bad refs and empty secrets are rejected; the secret never goes in the URL", async () => {
    expect(await t.api.put("/credentials/has%20space", { secret: "x" })).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
    expect((await t.api.put("/credentials/ok", { secret: "" })).status).toBe(422);
    expect((await t.api.put("/credentials/ok", {})).status).toBe(422);
    expect((await t.api.get("/credentials/ok")).status).toBe(404);
  });
});

describe("LLM connections API", () => {
  test("the table of wires is listed for the settings page", async () => {
    expect((await t.api.get("/connections/wires")).body.wires).toEqual([
      { wire: "anthropic", display_name: "Anthropic", needs_credential: true, default_base_url: "https://api.anthropic.com" },
      { wire: "openai", display_name: "OpenAI", needs_credential: true, default_base_url: "https://api.openai.com/v1" },
      { wire: "ollama", display_name: "Ollama", needs_credential: false, default_base_url: "http://127.0.0.1:11434" },
    ]);
  });

  test("CRUD, validation, and exactly one internal default", async () => {
    expect(await create({ name: "x", wire: "gemini", model: "m" })).toMatchObject({ status: 400, body: { error: { code: "UNKNOWN_WIRE" } } });
    expect(await create({ name: "x", wire: "anthropic", model: "m" })).toMatchObject({
      status: 400,
      body: { error: { code: "CONNECTION_INVALID", details: { reason: "credential_required" } } },
    });
    expect((await create({ name: "x", wire: "openai", model: "m", base_url: "ftp://nope" })).status).toBe(422);

    const a = await create({ name: "Claude", wire: "anthropic", model: "claude-x", credential_ref: "anthropic-key", internal_default: true });
    expect(a).toMatchObject({
      status: 201,
      body: { name: "Claude", wire: "anthropic", base_url: null, model: "claude-x", credential_ref: "anthropic-key", credential_set: false, internal_default: true },
    });
    await t.api.put("/credentials/anthropic-key", { secret: "k" });
    expect((await t.api.get(`/connections/${a.body.id}`)).body.credential_set).toBe(true);
    expect(await create({ name: "claude", wire: "ollama", model: "m" })).toMatchObject({ status: 409, body: { error: { code: "CONNECTION_NAME_TAKEN" } } });

    const b = await create({ name: "Local", wire: "ollama", model: "llama3", base_url: "http://127.0.0.1:11434", internal_default: true });
    expect(b.status).toBe(201);
    expect(await defaults()).toEqual(["Local"]);
    expect((await t.api.post(`/connections/${a.body.id}/internal-default`)).body.internal_default).toBe(true);
    expect(await defaults()).toEqual(["Claude"]);
    expect((await t.api.patch(`/connections/${a.body.id}`, { internal_default: false, model: "claude-y" })).body).toMatchObject({ model: "claude-y", internal_default: false });
    expect(await defaults()).toEqual([]);

    expect((await t.api.delete(`/connections/${b.body.id}`)).status).toBe(204);
    expect(await t.api.get(`/connections/${b.body.id}`)).toMatchObject({ status: 404, body: { error: { code: "CONNECTION_NOT_FOUND" } } });
    expect((await t.api.get("/connections")).body.connections.map((c: any) => c.name)).toEqual(["Claude"]);
    await t.api.delete(`/connections/${a.body.id}`);
  });
});

// "chat runs on the built-in model when no connection" is proved with a real CLI turn and zero
// connections in agent-acceptance.test.ts: the scripted agent here never reads connections,
// so a test with it could not fail.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const KEY = "sk-settings-voice-key-5555aaaa";

let t: TestDaemon | undefined;
let fake: FakeTranscription | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = undefined;
  fake = undefined;
});

/** Every file under the data dir, as text: the key must be sealed, never written plain. */
function dataDirText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString("latin1"))
    .join("\n");
}

describe("Settings → Connections → Voice transcription (real daemon, real SQLite, fake server)", () => {
  it("set with a key: voice turns on, the key is write-only, Test sends a generated WAV, Remove turns voice off", async () => {
    fake = await startFakeTranscription({ apiKey: KEY, answer: (r) => ({ text: r.fileType === "audio/wav" ? "" : "turn on the lights" }) });
    t = await startTestDaemon();
    expect((await t.api.get("/settings/transcription")).body).toEqual({ connection: null });

    const put = await t.api.put("/settings/transcription", { base_url: `${fake.baseUrl}/`, api_key: KEY, language: "EN" });
    expect(put.status).toBe(200);
    expect(put.body.connection).toMatchObject({ base_url: fake.baseUrl, model: "whisper-1", language: "en", has_key: true });
    expect(JSON.stringify(put.body)).not.toContain(KEY);
    expect(JSON.stringify((await t.api.get("/settings/transcription")).body)).not.toContain(KEY);
    expect((await t.api.get("/transcriptions/status")).body).toEqual({ configured: true });

    const test = await t.api.post("/settings/transcription/test");
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ ok: true, error: null, transcript: "" });
    // 44-byte header + half a second of 16 kHz 16-bit mono.
    expect(fake.requests[0]).toMatchObject({ authorization: `Bearer ${KEY}`, fileType: "audio/wav", fileName: "audio.wav", fileBytes: 44 + 16_000, language: "en" });

    const said = await fetch(`${t.daemon.url}/api/v1/transcriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.daemon.token}`, "content-type": "audio/ogg" },
      body: Buffer.from("OggS-bytes"),
    });
    expect(await said.json()).toEqual({ text: "turn on the lights" });

    // Changing the URL without api_key keeps the stored key.
    const moved = await t.api.put("/settings/transcription", { base_url: fake.baseUrl, model: "large-v3" });
    expect(moved.body.connection).toMatchObject({ model: "large-v3", language: null, has_key: true });
    expect(dataDirText(t.home)).not.toContain(KEY);

    expect((await t.api.delete("/settings/transcription")).status).toBe(204);
    expect((await t.api.get("/settings/transcription")).body).toEqual({ connection: null });
    expect((await t.api.get("/transcriptions/status")).body).toEqual({ configured: false });
    const off = await t.api.post("/settings/transcription/test");
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe("TRANSCRIPTION_OFF");
  });

  it("Test reports a refusal as ok:false in the daemon's words, without the key", async () => {
    fake = await startFakeTranscription({ apiKey: "sk-some-other-key" });
    t = await startTestDaemon();
    await t.api.put("/settings/transcription", { base_url: fake.baseUrl, api_key: KEY });
    const test = await t.api.post("/settings/transcription/test");
    expect(test.status).toBe(200);
    expect(test.body.ok).toBe(false);
    expect(test.body.error).toContain("401");
    expect(JSON.stringify(test.body)).not.toContain(KEY);
  });

  it("refuses a base URL that is not http(s) with 422, storing nothing", async () => {
    t = await startTestDaemon();
    const res = await t.api.put("/settings/transcription", { base_url: "file:///etc/passwd" });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect((await t.api.get("/settings/transcription")).body).toEqual({ connection: null });
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const KEY = "sk-voice-route-secret-0987654321";
const AUDIO = Buffer.from("4f676753000200000000", "hex"); // an Ogg page header: the fake only needs bytes

let t: TestDaemon | undefined;
let fake: FakeTranscription | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = undefined;
  fake = undefined;
});

function post(d: TestDaemon, contentType: string, body: Buffer) {
  return fetch(`${d.daemon.url}/api/v1/transcriptions`, {
    method: "POST",
    headers: { authorization: `Bearer ${d.daemon.token}`, "content-type": contentType },
    body,
  });
}

describe("POST /transcriptions and GET /transcriptions/status (real daemon, fake transcription server)", () => {
  it("is off with no connection: status false, a recording refused 409 TRANSCRIPTION_OFF", async () => {
    t = await startTestDaemon();
    expect((await t.api.get("/transcriptions/status")).body).toEqual({ configured: false });
    const res = await post(t, "audio/ogg", AUDIO);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("TRANSCRIPTION_OFF");
  });

  it("with a connection: the recording's bytes reach the server and the transcript comes back", async () => {
    fake = await startFakeTranscription({ apiKey: KEY, answer: () => ({ text: " call mum at six " }) });
    const baseUrl = fake.baseUrl;
    t = await startTestDaemon({ transcriptionConnection: { current: async () => ({ baseUrl, model: "whisper-1", apiKey: KEY, language: null }) } });
    expect((await t.api.get("/transcriptions/status")).body).toEqual({ configured: true });
    const res = await post(t, "audio/webm;codecs=opus", AUDIO);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: "call mum at six" });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ fileBytes: AUDIO.length, fileType: "audio/webm;codecs=opus", fileName: "audio.webm", model: "whisper-1" });
  });

  it("refuses a body that is not audio with 415, sending nothing upstream", async () => {
    fake = await startFakeTranscription();
    const baseUrl = fake.baseUrl;
    t = await startTestDaemon({ transcriptionConnection: { current: async () => ({ baseUrl, model: "whisper-1", apiKey: null, language: null }) } });
    const res = await post(t, "text/plain", Buffer.from("hello"));
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(fake.requests).toHaveLength(0);
  });

  it("an upstream refusal is 502 TRANSCRIPTION_FAILED and the key appears nowhere in the answer", async () => {
    fake = await startFakeTranscription({ apiKey: "sk-another-key" });
    const baseUrl = fake.baseUrl;
    t = await startTestDaemon({ transcriptionConnection: { current: async () => ({ baseUrl, model: "whisper-1", apiKey: KEY, language: null }) } });
    const res = await post(t, "audio/ogg", AUDIO);
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text).error.code).toBe("TRANSCRIPTION_FAILED");
    expect(text).not.toContain(KEY);
  });
});

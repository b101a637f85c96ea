import { afterEach, describe, expect, it } from "vitest";
import { TranscriptionFailed, TranscriptionOff } from "../../src/domain/errors.js";
import type { TranscriptionConnection } from "../../src/application/transcription/transcription-ports.js";
import { TranscriptionService } from "../../src/application/transcription/transcription-service.js";
import { OpenAiTranscriber } from "../../src/infrastructure/transcription/openai-transcriber.js";
import { startFakeTranscription, type FakeTranscription } from "../fakes/fake-transcription.js";

const KEY = "sk-voice-secret-1234567890";
// A few bytes stand for the recording: the fake, like a real server's multipart parser, only
// needs a file part; decoding audio is the server's business, not the client's.
const RECORDING = { bytes: new Uint8Array([82, 73, 70, 70, 0, 0, 0, 0]), mediaType: "audio/ogg" };

let fake: FakeTranscription | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

function serviceFor(connection: TranscriptionConnection | null, timeoutMs?: number): TranscriptionService {
  return new TranscriptionService({ current: async () => connection }, new OpenAiTranscriber(timeoutMs));
}

describe("TranscriptionService over the OpenAI-compatible wire (real HTTP, fake server)", () => {
  it("sends file, model, language and the key as multipart and returns the trimmed transcript", async () => {
    fake = await startFakeTranscription({ apiKey: KEY, answer: () => ({ text: "  buy milk tomorrow \n" }) });
    const service = serviceFor({ baseUrl: `${fake.baseUrl}/`, model: "whisper-1", apiKey: KEY, language: "en" });
    expect(await service.configured()).toBe(true);
    expect(await service.transcribe(RECORDING)).toBe("buy milk tomorrow");
    expect(fake.requests).toEqual([
      {
        path: "/v1/audio/transcriptions",
        authorization: `Bearer ${KEY}`,
        model: "whisper-1",
        language: "en",
        fileName: "audio.ogg",
        fileType: "audio/ogg",
        fileBytes: RECORDING.bytes.byteLength,
      },
    ]);
  });

  it("sends no Authorization header and no language when the connection has none (a local whisper server)", async () => {
    fake = await startFakeTranscription();
    const service = serviceFor({ baseUrl: fake.baseUrl, model: "base.en", apiKey: null, language: null });
    expect(await service.transcribe({ bytes: RECORDING.bytes, mediaType: "audio/webm;codecs=opus" })).toBe("hello from the fake");
    expect(fake.requests[0]).toMatchObject({ authorization: null, language: null, model: "base.en", fileName: "audio.webm" });
  });

  it("refuses with TRANSCRIPTION_OFF while no connection is set, sending nothing", async () => {
    const service = serviceFor(null);
    expect(await service.configured()).toBe(false);
    await expect(service.transcribe(RECORDING)).rejects.toBeInstanceOf(TranscriptionOff);
  });

  it("turns an upstream refusal into TRANSCRIPTION_FAILED whose message never carries the key", async () => {
    // The fake echoes the key it was given in its 401, as OpenAI does with a wrong key.
    fake = await startFakeTranscription({ apiKey: "sk-the-right-one" });
    const service = serviceFor({ baseUrl: fake.baseUrl, model: "whisper-1", apiKey: KEY, language: null });
    const err = await service.transcribe(RECORDING).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranscriptionFailed);
    expect((err as Error).message).toContain("401");
    expect((err as Error).message).toContain("Incorrect API key");
    expect((err as Error).message).not.toContain(KEY);
  });

  it("turns an unreachable endpoint into TRANSCRIPTION_FAILED without its URL", async () => {
    fake = await startFakeTranscription();
    const baseUrl = fake.baseUrl;
    await fake.close();
    fake = null;
    const err = await serviceFor({ baseUrl, model: "whisper-1", apiKey: null, language: null }).transcribe(RECORDING).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranscriptionFailed);
    expect((err as Error).message).toContain("could not be reached");
    expect((err as Error).message).not.toContain(baseUrl);
  });

  it("refuses an answer without text as TRANSCRIPTION_FAILED", async () => {
    fake = await startFakeTranscription({ answer: () => ({ status: 200, body: JSON.stringify({ segments: [] }) }) });
    const err = await serviceFor({ baseUrl: fake.baseUrl, model: "whisper-1", apiKey: null, language: null }).transcribe(RECORDING).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranscriptionFailed);
    expect((err as Error).message).toContain("no text");
  });
});

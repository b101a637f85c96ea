/**
 * Files from the phone at the platform seam: updates map a photo (its largest size), a document,
 * a voice note and an album's id; getFile + the file URL stream the bytes from the fake Bot API
 * over real HTTP; a file over the Bot API's 20 MB limit, a missing file, a cut or stalled
 * download each fail as PlatformFailure, never quoting the token (the file URL carries it).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlatformFailure, type FileChunks } from "../../src/application/channels/ports.js";
import type { TelegramBotConnection as BotConnection } from "../../src/infrastructure/telegram/telegram-connection.js";
import { TelegramPlatform } from "../../src/infrastructure/telegram/telegram-platform.js";
import { FAKE_GET_FILE_LIMIT, FakeTelegram } from "../fakes/fake-telegram.js";

const TOKEN = "4343:AAE-fake-token-for-files";
const OWNER = { id: 7001, first_name: "Ada" };

let fake: FakeTelegram;
let bot: BotConnection;

function connect(requestTimeoutSeconds?: number): BotConnection {
  return new TelegramPlatform({ apiRoot: fake.apiRoot, retry: { maxRetryAttempts: 0, maxDelaySeconds: 1, backoffSeconds: 0.01 }, ...(requestTimeoutSeconds ? { requestTimeoutSeconds } : {}) }).connect(TOKEN);
}

beforeEach(async () => {
  fake = await FakeTelegram.start();
  fake.addBot({ token: TOKEN, id: 4343, username: "coffer_files_bot", first_name: "Coffer" });
  bot = connect();
});

afterEach(async () => {
  await fake.close();
});

async function bytesOf(chunks: FileChunks): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

/** The failure a call ended with; neither its message nor its stack quotes the token. */
async function failureOf(p: Promise<unknown>): Promise<PlatformFailure> {
  const caught: unknown = await p.catch((e: unknown) => e);
  expect(caught).toBeInstanceOf(PlatformFailure);
  const failure = caught as PlatformFailure;
  expect(JSON.stringify([failure.message, String(failure), failure.stack])).not.toContain(TOKEN);
  return failure;
}

describe("telegram files: updates and downloads", () => {
  it("maps a photo to its largest size, a document with its name and type, a voice note and an album id", async () => {
    const small = fake.addFile(Buffer.alloc(10, 1), { path: "photos/s.jpg" });
    const large = fake.addFile(Buffer.alloc(500, 2), { path: "photos/l.jpg" });
    const pdf = fake.addFile(Buffer.from("%PDF-1.4 test"), { path: "documents/r.pdf" });
    const voice = fake.addFile(Buffer.from("OggS"), { path: "voice/v.oga" });
    fake.userSaysAll([
      { chatId: 7001, from: OWNER, text: "look", media: { photo: [{ ...large, width: 1280, height: 960 }, { ...small, width: 90, height: 67 }], media_group_id: "g1" } },
      { chatId: 7001, from: OWNER, text: "", media: { document: { ...pdf, file_name: "report.pdf", mime_type: "application/pdf" } } },
      { chatId: 7001, from: OWNER, text: "", media: { voice: { ...voice, duration: 2, mime_type: "audio/ogg" } } },
    ]);
    const [photo, doc, note] = await bot.getUpdates(0, 0, new AbortController().signal);
    expect(photo).toMatchObject({ text: "look", mediaGroupId: "g1", files: [{ kind: "photo", fileId: large.file_id, mediaType: "image/jpeg", size: 500 }] });
    expect(doc).toMatchObject({ text: null, files: [{ kind: "document", fileId: pdf.file_id, name: "report.pdf", mediaType: "application/pdf", size: pdf.file_size }] });
    expect(doc!.mediaGroupId).toBeUndefined();
    expect(note).toMatchObject({ files: [{ kind: "voice", fileId: voice.file_id, mediaType: "audio/ogg" }] });
  });

  it("downloads a file's bytes through getFile and the file URL", async () => {
    const bytes = Buffer.alloc(300_000, 9);
    const file = fake.addFile(bytes, { path: "documents/big.bin" });
    expect((await bytesOf(await bot.downloadFile(file.file_id))).equals(bytes)).toBe(true);
    expect(fake.calls("getFile", { ok: true })).toHaveLength(1);
    expect(fake.calls("file", { ok: true })).toHaveLength(1);
  });

  it("a file over the Bot API's 20 MB getFile limit is refused, without the token", async () => {
    const file = fake.addFile(Buffer.alloc(1), { size: FAKE_GET_FILE_LIMIT + 1 });
    const f = await failureOf(bot.downloadFile(file.file_id));
    expect(f.kind).toBe("rejected");
    expect(fake.calls("file")).toHaveLength(0);
  });

  it("a cut download and a stalled one fail as PlatformFailure, without the token", async () => {
    const file = fake.addFile(Buffer.alloc(100_000, 3), { path: "documents/cut.bin" });
    fake.dropNext("file", 1);
    expect((await failureOf(bot.downloadFile(file.file_id))).kind).toBe("unreachable");
    // Stalled: headers and half the bytes, then silence until the request timeout ends it.
    fake.hangNext("file", 1);
    const slow = connect(1);
    const f = await failureOf(slow.downloadFile(file.file_id).then(bytesOf));
    expect(f.kind).toBe("unreachable");
    expect(f.message).toMatch(/stalled/);
  });
});

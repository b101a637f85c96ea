/**
 * Voice notes from the phone (issue 25): a real daemon (real SQLite, real HTTP), grammY against
 * the fake Bot API and the fake OpenAI-compatible transcription server, both on 127.0.0.1; the
 * scripted agent answers. With a connection set, a voice note is fetched, transcribed, echoed
 * ("🎤 heard: …") and sent as the owner's message marked voice; without one the phone gets one
 * line; a failed or empty transcription is one line and nothing sent; a redelivered update is
 * neither transcribed nor sent twice, and the mark survives a restart.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, test } from "vitest";
import { VOICE_OFF_TEXT } from "../../src/application/channels/voice-notes.js";
import { startFakeTranscription, type FakeTranscription, type FakeTranscriptionAnswer } from "../fakes/fake-transcription.js";
import { acceptance } from "../support/acceptance.js";
import { FAST_CHANNEL, OWNER, STRANGER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "025-attachments";
const OGG = Buffer.concat([Buffer.from("OggS"), Buffer.alloc(4_000, 7)]);

let rig: ChannelRig | null = null;
let speech: FakeTranscription | null = null;
let again: TestDaemon | null = null;
afterEach(async () => {
  await again?.stop();
  await rig?.close();
  await speech?.close();
  rig = speech = again = null;
});

/** A paired channel on the scripted agent, with (or without) the fake transcription server as its voice connection. */
async function voiceRig(answer?: (n: number) => FakeTranscriptionAnswer | Promise<FakeTranscriptionAnswer>, connected = true): Promise<ChannelRig> {
  let n = 0;
  speech = await startFakeTranscription(answer ? { answer: () => answer(n++) } : {});
  rig = await startChannelRig();
  if (connected) {
    const put = await rig.t.api.put("/settings/transcription", { base_url: speech.baseUrl, model: "whisper-1" });
    expect(put.status).toBe(200);
  }
  return rig;
}

/** The owner records a voice note; resolves with the update Telegram sent (to offer it again). */
function speak(r: ChannelRig, bytes = OGG, size?: number) {
  const file = r.tg.addFile(bytes, { path: `voice/file_${bytes.length}.oga`, ...(size ? { size } : {}) });
  return r.tg.userSays({ chatId: OWNER.id, from: OWNER, text: "", media: { voice: { ...file, duration: 3, mime_type: "audio/ogg" } } });
}

async function userMessages(t: TestDaemon): Promise<{ text: string; voice?: boolean }[]> {
  const list = (await t.api.get("/chat/conversations")).body.conversations as { id: string }[];
  const out: { text: string; voice?: boolean }[] = [];
  for (const c of list) {
    const messages = (await t.api.get(`/chat/conversations/${c.id}/messages`)).body.messages as { role: string; content: { text?: string }[]; voice?: boolean }[];
    for (const m of messages) if (m.role === "user") out.push({ text: m.content.map((b) => b.text ?? "").join(""), ...(m.voice !== undefined ? { voice: m.voice } : {}) });
  }
  return out;
}

describe("telegram voice notes", () => {
  acceptance(SPEC, "with a transcription connection set, a Telegram voice note becomes a message whose text is the transcript, marked 🎤 and echoed to the phone", async () => {
    const r = await voiceRig(() => ({ text: "  please run the tests  " }));
    const list = await r.t.subscribeList();
    const note = speak(r).update_id;
    // Echoed first, then the agent's answer to the transcript (the scripted agent echoes its input).
    await r.botSays((m) => m.text.includes("echo: please run the tests"));
    const bot = r.botMessages().map((m) => m.text);
    const echo = bot.indexOf("🎤 heard: please run the tests");
    expect(echo).toBeGreaterThanOrEqual(0);
    expect(echo).toBeLessThan(bot.findIndex((t) => t.includes("echo: please run the tests")));
    await r.handled(note);
    // The recording reached the transcription server as it was, and nothing else did.
    expect(speech!.requests).toHaveLength(1);
    expect(speech!.requests[0]).toMatchObject({ model: "whisper-1", fileType: "audio/ogg", fileBytes: OGG.length, fileName: "audio.ogg" });
    expect(r.t.scripted.turns.map((t) => t.text)).toEqual(["please run the tests"]);
    // The thread and the live stream both carry the mark.
    expect(await userMessages(r.t)).toEqual([{ text: "please run the tests", voice: true }]);
    const conv = (await r.t.api.get("/chat/conversations")).body.conversations[0].id as string;
    const sub = await r.t.subscribe(conv);
    r.tg.userSays({ chatId: OWNER.id, from: OWNER, text: "typed" });
    const typed = await sub.waitFor((e) => e.type === "turn_start");
    expect((typed.event as { user_message: { voice?: boolean } }).user_message.voice).toBeUndefined();
    speak(r, Buffer.concat([OGG, Buffer.from("second")]));
    const spoken = await sub.waitFor((e) => e.type === "turn_start" && e.user_message.voice === true);
    expect((spoken.event as { user_message: { content: { text: string }[] } }).user_message.content[0]!.text).toBe("please run the tests");
    sub.close();
    list.close();
  });

  acceptance(SPEC, "without a transcription connection, the phone is told in one line how to turn it on", async () => {
    const r = await voiceRig(undefined, false);
    const note = speak(r).update_id;
    await r.handled(note);
    await r.botSays((m) => m.text === VOICE_OFF_TEXT);
    expect(VOICE_OFF_TEXT).toBe("Voice notes need a transcription connection: Settings → LLM Connections → Voice transcription on the page.");
    // One line, nothing fetched from Telegram, nothing transcribed, no message, no turn.
    const after = r.botMessages().slice(r.botMessages().findIndex((m) => m.text.startsWith("Paired.")) + 1);
    expect(after.map((m) => m.text)).toEqual([VOICE_OFF_TEXT]);
    expect(r.tg.calls("getFile")).toHaveLength(0);
    expect(speech!.requests).toHaveLength(0);
    expect(await userMessages(r.t)).toEqual([]);
    expect(r.t.scripted.turns).toHaveLength(0);
  });

  test("a stranger's voice note is not fetched, transcribed or answered", async () => {
    const r = await voiceRig();
    const file = r.tg.addFile(OGG, { path: "voice/stranger.oga" });
    const sent = r.botMessages().length;
    const note = r.tg.userSays({ chatId: STRANGER.id, from: STRANGER, text: "", media: { voice: { ...file, duration: 2, mime_type: "audio/ogg" } } }).update_id;
    await r.handled(note);
    expect(r.tg.calls("getFile")).toHaveLength(0);
    expect(speech!.requests).toHaveLength(0);
    expect(r.tg.chat(STRANGER.id).filter((m) => m.from === "bot")).toEqual([]);
    expect(r.botMessages()).toHaveLength(sent);
    expect((await r.t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored).toBe(1);
  });

  test("an audio file (not a voice note) is transcribed the same way, sent under its own type", async () => {
    const r = await voiceRig(() => ({ text: "meeting notes: ship on Friday" }));
    const file = r.tg.addFile(Buffer.from("ID3 mp3 bytes"), { path: "music/memo.mp3" });
    r.tg.userSays({ chatId: OWNER.id, from: OWNER, text: "", media: { audio: { ...file, duration: 9, mime_type: "audio/mpeg", file_name: "memo.mp3" } } });
    await r.botSays((m) => m.text.includes("echo: meeting notes: ship on Friday"));
    expect(speech!.requests).toMatchObject([{ fileType: "audio/mpeg", fileName: "audio.mp3" }]);
    expect(await userMessages(r.t)).toEqual([{ text: "meeting notes: ship on Friday", voice: true }]);
  });

  test("a failed, an empty and a too-large transcription each get one line and send nothing", async () => {
    const r = await voiceRig((n) => (n === 0 ? { status: 500, body: JSON.stringify({ error: { message: "model not loaded" } }) } : { text: "   " }));
    const failed = speak(r).update_id;
    await r.handled(failed);
    await r.botSays((m) => m.text.startsWith("🎤 The voice note could not be transcribed"));
    expect(r.botMessages().find((m) => m.text.startsWith("🎤 The voice note could not be transcribed"))!.text).toContain("model not loaded");
    const empty = speak(r, Buffer.concat([OGG, Buffer.from("quiet")])).update_id;
    await r.handled(empty);
    await r.botSays((m) => m.text === "🎤 Nothing was heard in that voice note, so nothing was sent.");
    // Over what a bot may fetch: said before anything is fetched or transcribed.
    const gets = r.tg.calls("getFile").length;
    const big = speak(r, Buffer.from("OggS"), 21 * 1024 * 1024).update_id;
    await r.handled(big);
    await r.botSays((m) => m.text.startsWith("🎤 That recording is over 20 MB"));
    expect(r.tg.calls("getFile")).toHaveLength(gets);
    expect(speech!.requests).toHaveLength(2);
    expect(r.botMessages().some((m) => m.text.startsWith("🎤 heard"))).toBe(false);
    expect(await userMessages(r.t)).toEqual([]);
    expect(r.t.scripted.turns).toHaveLength(0);
  });

  test("a voice note while a turn runs is queued with its mark, keeps it in the queue and runs marked", async () => {
    const r = await voiceRig(() => ({ text: "after that, deploy" }));
    const first = r.say(script({ text: "working" }, { gate: "hold" }, { text: " done" }));
    await r.handled(first);
    const conv = (await r.t.api.get("/chat/conversations")).body.conversations[0].id as string;
    const sub = await r.t.subscribe(conv);
    await sub.waitFor((e) => e.type === "text_delta");
    const note = speak(r).update_id;
    await r.handled(note);
    await r.botSays((m) => m.text.startsWith("⏳ Queued"));
    expect(r.botMessages().some((m) => m.text === "🎤 heard: after that, deploy")).toBe(true);
    const queue = (await r.t.api.get(`/chat/conversations/${conv}/pending`)).body.pending;
    expect(queue).toMatchObject([{ text: "after that, deploy", voice: true }]);
    const frame = (await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 1)).event as { pending: { voice?: boolean }[] };
    expect(frame.pending[0]!.voice).toBe(true);
    r.t.scripted.gates.open("hold");
    await sub.waitFor((e) => e.type === "turn_start" && e.user_message.voice === true);
    await r.botSays((m) => m.text.includes("echo: after that, deploy"));
    expect((await userMessages(r.t)).map((m) => m.voice ?? false)).toEqual([false, true]);
    sub.close();
  });

  test("a queued voice note sent now into the running turn keeps its mark where the turn took it", async () => {
    const r = await voiceRig(() => ({ text: "use the staging database" }));
    const first = r.say(script({ text: "working" }, { await_steer: true }));
    await r.handled(first);
    const conv = (await r.t.api.get("/chat/conversations")).body.conversations[0].id as string;
    const sub = await r.t.subscribe(conv);
    await sub.waitFor((e) => e.type === "text_delta");
    await r.handled(speak(r).update_id);
    const [row] = (await r.t.api.get(`/chat/conversations/${conv}/pending`)).body.pending as { id: string; voice?: boolean }[];
    expect(row!.voice).toBe(true);
    expect((await r.t.api.post(`/chat/conversations/${conv}/pending/${row!.id}/steer`)).body).toMatchObject({ steered: true });
    const steered = await sub.waitFor((e) => e.type === "steered");
    expect(steered.event.type === "steered" && steered.event.user_message).toMatchObject({ steered: true, voice: true, content: [{ type: "text", text: "use the staging database" }] });
    await sub.waitFor((e) => e.type === "turn_done");
    expect(r.t.scripted.turns[0]!.steered).toEqual(["use the staging database"]);
    expect(await userMessages(r.t)).toEqual([{ text: script({ text: "working" }, { await_steer: true }) }, { text: "use the staging database", voice: true }]);
    sub.close();
  });

  test("a daemon stopped mid-transcription tells the phone nothing and handles the note at its next start", async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    let first = true;
    // The first request is held (a slow server) until the daemon gives up on it by stopping.
    const r = await voiceRig(() => {
      if (!first) return { text: "after the restart" };
      first = false;
      arrived();
      return new Promise<FakeTranscriptionAnswer>(() => {});
    });
    const update = speak(r);
    await inFlight;
    const { home } = r.t;
    await r.t.stop();
    const offset = (() => {
      const db = new Database(join(home, "coffer.db"), { readonly: true });
      try {
        return Number((db.prepare("SELECT cursor FROM channels WHERE id = ?").get(r.channelId) as { cursor: string | null }).cursor ?? 0);
      } finally {
        db.close();
      }
    })();
    expect(offset).toBeLessThanOrEqual(update.update_id);
    expect(r.botMessages().filter((m) => m.text.startsWith("🎤"))).toEqual([]);
    // Telegram still has it (no poll confirmed it): the next start transcribes and sends it once.
    again = await startTestDaemon({ ...FAST_CHANNEL, home, telegram: { apiRoot: r.tg.apiRoot, pollTimeoutSeconds: 5 } });
    await r.botSays((m) => m.text.includes("echo: after the restart"));
    expect(r.botMessages().filter((m) => m.text.startsWith("🎤")).map((m) => m.text)).toEqual(["🎤 heard: after the restart"]);
    expect(await userMessages(again)).toEqual([{ text: "after the restart", voice: true }]);
  });

  test("a voice note offered again after a restart is not transcribed or sent twice, and its mark survives the restart", async () => {
    const r = await voiceRig(() => ({ text: "note to self" }));
    const update = speak(r);
    await r.botSays((m) => m.text.includes("echo: note to self"));
    await r.handled(update.update_id);
    const { home } = r.t;
    await r.t.stop();
    const mark = r.tg.sent.length;
    // What a crash after handling the note and before recording its offset leaves: the offset
    // below it, and Telegram offering it again.
    const db = new Database(join(home, "coffer.db"));
    db.prepare("UPDATE channels SET cursor = ? WHERE id = ?").run(String(update.update_id), r.channelId);
    db.close();
    r.tg.redeliver(update);
    again = await startTestDaemon({ ...FAST_CHANNEL, home, telegram: { apiRoot: r.tg.apiRoot, pollTimeoutSeconds: 5 } });
    const polls = () => r.tg.sent.slice(mark).filter((c) => c.method === "getUpdates").map((c) => Number(c.params.offset ?? 0));
    // Offered again (the test is not vacuous), then handled: the next poll confirms it.
    await r.tg.waitFor(() => polls().some((offset) => offset > update.update_id));
    expect(polls()[0]).toBe(update.update_id);
    expect(speech!.requests).toHaveLength(1);
    expect(r.botMessages().filter((m) => m.text.startsWith("🎤 heard"))).toHaveLength(1);
    expect(again.scripted.turns).toHaveLength(0);
    expect(await userMessages(again)).toEqual([{ text: "note to self", voice: true }]);
  });
});

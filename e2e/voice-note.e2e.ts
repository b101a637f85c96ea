import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { FakeTelegram, type FakeChatMessage } from "../packages/daemon/test/fakes/fake-telegram.js";
import { startFakeTranscription, type FakeTranscription } from "../packages/daemon/test/fakes/fake-transcription.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// The phone (our fake Bot API) sends a voice note, our fake transcription server hears it, the
// scripted agent answers; the page in Chromium shows the message with its 🎤 mark.
const BOT = { token: "778003:e2e-voice-token", id: 778003, username: "coffer_voice_bot", first_name: "Coffer Voice" };
const ADA = { id: 5252, first_name: "Ada" };
const SPOKEN = "The login page times out after the deploy; can you look at the session middleware?";

let tg: FakeTelegram;
let speech: FakeTranscription;
let d: E2eDaemon;
let browser: Browser;

beforeAll(async () => {
  tg = await FakeTelegram.start();
  tg.addBot(BOT);
  speech = await startFakeTranscription({ answer: () => ({ text: SPOKEN }) });
  [d, browser] = await Promise.all([startE2eDaemon({ COFFER_TELEGRAM_API_ROOT: tg.apiRoot }), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await tg?.close();
  await speech?.close();
});

const botMessages = (): FakeChatMessage[] => tg.chat(ADA.id).filter((m) => m.from === "bot");
const botSays = (match: (m: FakeChatMessage) => boolean) => tg.waitFor(() => botMessages().some(match));

test("a voice note from the phone shows on the page with a 🎤 mark before its transcript", async () => {
  expect((await d.api.put("/settings/transcription", { base_url: speech.baseUrl })).status).toBe(200);
  expect((await d.api.put("/credentials/tg-voice", { secret: BOT.token })).status).toBe(200);
  const created = await d.api.post("/channels", { kind: "telegram", name: "Phone", bot_token_ref: "tg-voice", default_agent: "scripted" });
  expect(created.status).toBe(201);
  const code = (await d.api.post(`/channels/${created.body.id}/pairing-code`)).body.code as string;
  await tg.waitFor((f) => f.polling());
  tg.userSays({ chatId: ADA.id, from: ADA, text: code });
  await botSays((m) => m.text.startsWith("Paired."));
  const file = tg.addFile(Buffer.from("OggS e2e voice"), { path: "voice/e2e.oga" });
  tg.userSays({ chatId: ADA.id, from: ADA, text: "", media: { voice: { ...file, duration: 4, mime_type: "audio/ogg" } } });
  await botSays((m) => m.text.startsWith("echo: The login page"));
  tg.userSays({ chatId: ADA.id, from: ADA, text: "Typed follow-up: only on Safari." });
  await botSays((m) => m.text.startsWith("echo: Typed follow-up"));
  const id = (await d.api.get("/chat/conversations")).body.conversations[0].id as string;

  const { page } = await newPage(browser);
  try {
    await page.goto(d.openUrl);
    await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
    await page.goto(`${d.daemon.url}/chat/${id}`);
    await ui(page).composer.waitFor();
    const marks = page.getByRole("img", { name: "voice note" });
    await marks.first().waitFor();
    // One mark: on the spoken message, not on the typed one.
    expect(await marks.count()).toBe(1);
    const bubbles = page.locator(".msg-user .bubble");
    expect(await bubbles.first().textContent()).toBe(SPOKEN);
    expect(await bubbles.nth(1).textContent()).toBe("Typed follow-up: only on Safari.");
    await shotAll(page, "25-voice-note-thread");
  } catch (err) {
    await shot(page, "failed-25-voice-note");
    throw err;
  } finally {
    await page.context().close();
  }
}, 90_000);

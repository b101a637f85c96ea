import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTranscription, type FakeTranscription, type FakeTranscriptionAnswer, type FakeTranscriptionRequest } from "../packages/daemon/test/fakes/fake-transcription.js";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { browserRig } from "./support/rig.js";
import { ui } from "./support/ui.js";

// Chromium's own fake microphone (a beeping tone) and its auto-accepted permission prompt: the
// page records through the real getUserMedia and MediaRecorder, nothing in the page is stubbed.
const rig = browserRig({ browserArgs: ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"] });

const KEY = "sk-voice-e2e-0123456789";
let fake: FakeTranscription;
/** What the fake server answers a recording (the test tone, audio/wav, always gets its own line). */
let answer: (r: FakeTranscriptionRequest) => FakeTranscriptionAnswer = () => ({ text: " please fix the login page " });

beforeAll(async () => {
  fake = await startFakeTranscription({ apiKey: KEY, answer: (r) => (r.fileType === "audio/wav" ? { text: "test tone heard" } : answer(r)) });
});
afterAll(async () => {
  await fake?.close();
});

describe("voice on the page", () => {
  acceptance("025-attachments", "the page's composer records from the microphone and the transcript fills the composer for review", async () => {
    const id = (await rig.d.api.post("/chat/conversations", { agent_key: "scripted", title: "Login bug" })).body.id as string;
    const { page } = await newPage(rig.browser);
    rig.pages.push(page);
    await page.goto(rig.d.openUrl);
    await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
    await page.goto(`${rig.d.daemon.url}/chat/${id}`);
    const { composer } = ui(page);
    await composer.waitFor();

    // Off by default: the microphone is there but marked off, and a tap says where to turn it on.
    const offMic = page.getByRole("button", { name: "Voice input (off)" });
    await offMic.waitFor();
    expect(await offMic.getAttribute("aria-disabled")).toBe("true");
    // aria-disabled, not disabled: it keeps the focus and answers a key (and a tap) with the hint.
    await offMic.focus();
    await page.keyboard.press("Enter");
    const offNote = page.getByRole("status").filter({ hasText: "Voice input is off." });
    await offNote.waitFor();
    expect(fake.requests).toHaveLength(0);
    await shotAll(page, "25-voice-off");
    await offNote.getByRole("link", { name: "Settings → LLM Connections" }).click();
    await page.waitForURL(/\/settings\/connections$/);

    // Configured through the page: a wrong key first (Test shows the server's refusal), then the right one.
    const form = page.getByRole("form", { name: "Voice transcription connection" });
    await form.getByLabel("Base URL").fill(fake.baseUrl);
    await form.getByLabel("Model").fill("whisper-1");
    await form.getByLabel("API key").fill("sk-wrong");
    await form.getByLabel("Language").fill("en");
    await form.getByRole("button", { name: "Save and turn on" }).click();
    await form.getByText("Saved", { exact: true }).waitFor();
    await form.getByRole("button", { name: "Test" }).click();
    const result = form.getByRole("status", { name: "Test result" });
    await result.filter({ hasText: "Test failed" }).waitFor();
    expect(await result.textContent()).toContain("401");
    await form.getByRole("button", { name: "Replace" }).click();
    await form.getByLabel("API key").fill(KEY);
    await form.getByRole("button", { name: "Save", exact: true }).click();
    await form.getByText("Saved", { exact: true }).waitFor();
    await form.getByRole("button", { name: "Test" }).click();
    await result.filter({ hasText: "Transcription works — heard “test tone heard”" }).waitFor();
    const tone = fake.requests.at(-1)!;
    expect(tone).toMatchObject({ authorization: `Bearer ${KEY}`, model: "whisper-1", language: "en", fileType: "audio/wav" });
    // Write-only: the page is told a key is stored, never the key.
    const stored = await rig.d.api.get("/settings/transcription");
    expect(stored.body.connection).toMatchObject({ base_url: fake.baseUrl, has_key: true, language: "en" });
    expect(JSON.stringify(stored.body)).not.toContain(KEY);
    expect(await page.content()).not.toContain(KEY);
    // The two "saved" toasts would cover the form in the shots.
    const toastClose = page.getByRole("button", { name: "Close notification" });
    while ((await toastClose.count()) > 0) await toastClose.first().click();
    await shotAll(page, "25-voice-settings");
    // On a phone the form runs below the fold: one more shot scrolled to the Test result.
    await page.setViewportSize({ width: 390, height: 844 });
    await result.scrollIntoViewIfNeeded();
    await shot(page, "25-voice-settings-phone-result");

    // Record in the composer: the transcript joins what was typed, for review; nothing is sent.
    await page.goto(`${rig.d.daemon.url}/chat/${id}`);
    await composer.fill("Look at this:");
    const mic = page.getByRole("button", { name: "Record a voice message" });
    await mic.click();
    const timer = page.getByRole("timer");
    await timer.waitFor();
    // The page's own clock reaching 0:01: a second of the fake tone is in the recording.
    await page.getByRole("timer", { name: "Recording, 0:01" }).waitFor();
    await shotAll(page, "25-voice-recording");
    const sent = fake.requests.length;
    await page.getByRole("button", { name: "Stop recording and transcribe" }).click();
    await page.waitForFunction(() => (document.querySelector("textarea.composer-input") as HTMLTextAreaElement | null)?.value === "Look at this: please fix the login page");
    expect(fake.requests).toHaveLength(sent + 1);
    const heard = fake.requests.at(-1)!;
    expect(heard.fileType).toMatch(/^audio\/webm/);
    expect(heard.fileName).toBe("audio.webm");
    expect(heard.fileBytes).toBeGreaterThan(1000);
    expect(await timer.count()).toBe(0);
    expect((await rig.d.api.get(`/chat/conversations/${id}/messages`)).body.messages).toEqual([]);
    // The caret sits after the transcript, so typing goes on from there.
    expect(await composer.evaluate((el: HTMLTextAreaElement) => [document.activeElement === el, el.selectionStart])).toEqual([true, "Look at this: please fix the login page".length]);
    await shotAll(page, "25-voice-transcribed");

    // Esc cancels a recording: nothing is posted, the text stays as it was.
    await mic.click();
    await timer.waitFor();
    await page.keyboard.press("Escape");
    await mic.waitFor();
    expect(await timer.count()).toBe(0);
    expect(fake.requests).toHaveLength(sent + 1);
    expect(await composer.inputValue()).toBe("Look at this: please fix the login page");

    // A failure upstream is said inline, in the daemon's words, and the text is untouched.
    answer = () => ({ status: 500, body: JSON.stringify({ error: { message: "model crashed" } }) });
    await mic.click();
    await timer.waitFor();
    await page.getByRole("button", { name: "Stop recording and transcribe" }).click();
    const failure = page.getByRole("alert").filter({ hasText: "could not turn the audio into text" });
    await failure.waitFor();
    expect(await failure.textContent()).toContain("answered 500: model crashed");
    expect(await composer.inputValue()).toBe("Look at this: please fix the login page");
    await shotAll(page, "25-voice-failed");
  });

  it("a refused microphone is said where the mic is, and nothing is posted", async () => {
    // Voice is on from the scenario above (same daemon); make sure of it for this test alone too.
    await rig.d.api.put("/settings/transcription", { base_url: fake.baseUrl, api_key: KEY });
    const id = (await rig.d.api.post("/chat/conversations", { agent_key: "scripted", title: "Mic refused" })).body.id as string;
    // A browser of its own without the auto-accepting prompt (it would override any refusal),
    // whose permission store says no for the daemon's origin, as when the owner blocked the site
    // (set through Chromium's DevTools protocol): the page meets a real NotAllowedError.
    const browser = await launchBrowser(["--use-fake-device-for-media-stream"]);
    try {
      const { context, page } = await newPage(browser);
      const { targetInfo } = await (await context.newCDPSession(page)).send("Target.getTargetInfo");
      await (await browser.newBrowserCDPSession()).send("Browser.setPermission", {
        permission: { name: "microphone" },
        setting: "denied",
        origin: rig.d.daemon.url,
        browserContextId: targetInfo.browserContextId!,
      });
      await page.goto(rig.d.openUrl);
      await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
      await page.goto(`${rig.d.daemon.url}/chat/${id}`);
      const sent = fake.requests.length;
      await page.getByRole("button", { name: "Record a voice message" }).click();
      await page.getByRole("alert").filter({ hasText: "Microphone blocked: allow it for this page" }).waitFor();
      expect(await page.getByRole("timer").count()).toBe(0);
      expect(fake.requests).toHaveLength(sent);
      await shotAll(page, "25-voice-blocked");
    } finally {
      await browser.close();
    }
  });
});

import { afterAll, beforeAll, expect, test } from "vitest";
import { startFakeTranscription, type FakeTranscription } from "../../daemon/test/fakes/fake-transcription.js";
import { OWNER, startChannelRig, type ChannelRig } from "../../daemon/test/support/channel-rig.js";
import { cofferAgainst } from "./support/run-cli.js";

// A real daemon, the fake Bot API and the fake transcription server: the voice note arrives from the phone.
let rig: ChannelRig;
let speech: FakeTranscription;
beforeAll(async () => {
  speech = await startFakeTranscription({ answer: () => ({ text: "ship it" }) });
  rig = await startChannelRig();
  await rig.t.api.put("/settings/transcription", { base_url: speech.baseUrl });
});
afterAll(async () => {
  await rig.close();
  await speech.close();
});

test("coffer chat show marks a message that came from a voice note with 🎤, and a typed one without", async () => {
  const file = rig.tg.addFile(Buffer.from("OggS voice"), { path: "voice/v.oga" });
  rig.tg.userSays({ chatId: OWNER.id, from: OWNER, text: "", media: { voice: { ...file, duration: 1, mime_type: "audio/ogg" } } });
  await rig.botSays((m) => m.text.includes("echo: ship it"));
  rig.say("typed too");
  await rig.botSays((m) => m.text.includes("echo: typed too"));
  const id = (await rig.t.api.get("/chat/conversations")).body.conversations[0].id as string;
  const r = await cofferAgainst(rig.t, ["chat", "show", id]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("── you · 🎤 voice note · #0\nship it");
  expect(r.stdout).toContain("── you · #2\ntyped too");
});

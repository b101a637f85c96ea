import type { ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startFakeTranscription, type FakeTranscription } from "../../daemon/test/fakes/fake-transcription.js";
import { OWNER, startChannelRig, type ChannelRig } from "../../daemon/test/support/channel-rig.js";
import { TurnPrinter } from "../src/turn-printer.js";
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

test("chat watch words a voice note's turn the same way: 'you · 🎤 voice note'", () => {
  const chunks: string[] = [];
  const printer = new TurnPrinter({ write: (s: string) => chunks.push(s) } as unknown as NodeJS.WritableStream);
  const start = (voice: boolean, text: string) =>
    ({ type: "turn_start", turn_id: "t", assistant_message_id: "a", client_id: null, user_message: { id: "u", role: "user", content: [{ type: "text", text }], ...(voice ? { voice: true } : {}) } }) as unknown as ChatEvent;
  printer.print(start(true, "ship it"));
  expect(chunks.join("")).toBe("── you · 🎤 voice note\nship it\n── assistant\n");
  chunks.length = 0;
  printer.print(start(false, "typed"));
  expect(chunks.join("")).toBe("── you\ntyped\n── assistant\n");
});

/**
 * The platform-neutral channel seam (issue 26), proven on Telegram against the fake Bot API with a
 * real daemon: what the seam promises beyond Telegram's own suite.
 */
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startChannelRig, type ChannelRig } from "../support/channel-rig.js";

const SPEC = "026-second-platform";
let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe("the channel seam", () => {
  acceptance(SPEC, "a relay attaches to its turn from the engine's turn-started hook, not from the conversation-list stream", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    // No page is open, and the channels do not listen to the page's list stream at all.
    expect(t.daemon.listEvents.listenerCount).toBe(0);
    // Silenced outright: a relay that still depended on it would never attach.
    t.daemon.listEvents.emit = () => undefined;
    rig.say("from the phone");
    await rig.botSays((m) => m.text.includes("from the phone"));
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
    const sub = await t.subscribe(conv.id);
    await t.api.post(`/chat/conversations/${conv.id}/messages`, { text: "from the desk" });
    await sub.waitFor((e) => e.type === "turn_done");
    const mirrored = await rig.botSays((m) => m.text === "(from Coffer) from the desk");
    await rig.botSays((m) => m.messageId > mirrored.messageId && m.text.includes("from the desk"));
    sub.close();
  });
});

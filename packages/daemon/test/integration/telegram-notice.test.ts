/**
 * Coffer's one-line notice (a lost agent session restarted with the conversation so far) reaches
 * the phone: the Telegram relay sends it as its own message, before the answer. Real daemon, the
 * fake Bot API, the scripted agent yielding the notice as the Claude and Codex adapters do.
 */
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";

const NOTICE = "The agent had lost this conversation's session; it was restarted with the conversation so far.";
let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe("telegram: the reseeded notice", () => {
  acceptance("024-agent-sessions", "the one-line notice reaches coffer chat (live and in chat show) and the Telegram chat", async () => {
    rig = await startChannelRig();
    rig.say(script({ notice: NOTICE }, { text: "Zorro, as you said." }));
    const notice = await rig.botSays((m) => m.text === `ℹ️ ${NOTICE}`);
    const answer = await rig.botSays((m) => m.text.includes("Zorro, as you said."));
    expect(answer.messageId).toBeGreaterThan(notice.messageId);
    expect(rig.botMessages().filter((m) => m.text.includes(NOTICE))).toHaveLength(1);
  });
});

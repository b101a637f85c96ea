/**
 * Buttons on the phone (issue 26, "Buttons"), through the real daemon and grammY against the
 * fake Bot API: a multi-select's toggles and Send, a stranger's tap refused, the progress
 * message's Stop, and a question's message withdrawn (buttons gone, the winner named) when it
 * is answered anywhere. The application code is platform-neutral (OutgoingMessage.buttons in,
 * InboundUpdate.callback back), so Discord shares every path tested here.
 */
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { OWNER, STRANGER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { ApiClient } from "../support/http-client.js";
import { script } from "../support/scripted-agent.js";
import type { FakeChatMessage } from "../fakes/fake-telegram.js";

const SPEC = "026-second-platform";

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const checks = {
  header: "Checks",
  text: "Which ones?",
  options: [
    { label: "lint", description: "" },
    { label: "test", description: "" },
    { label: "e2e", description: "slow" },
  ],
  multi_select: true,
  allow_free_text: false,
};
const yesNo = { header: "Migrate", text: "Run it now?", options: [{ label: "Yes", description: "" }, { label: "No", description: "" }], multi_select: false, allow_free_text: false };

/** The owner (or anyone) taps a button; resolves the notice the tap was acknowledged with. */
async function tap(r: ChannelRig, message: FakeChatMessage, data: string, from: { id: number; first_name: string } = OWNER): Promise<string> {
  const id = r.tg.userTaps({ chatId: OWNER.id, from, messageId: message.messageId, data });
  await r.tg.waitFor((f) => f.calls("answerCallbackQuery").some((c) => c.params.callback_query_id === id));
  return String(r.tg.calls("answerCallbackQuery").find((c) => c.params.callback_query_id === id)!.params.text);
}

/** A page session's client: its answers are "by web", as the page's are. */
async function pageClient(r: ChannelRig): Promise<ApiClient> {
  const s = (await r.t.api.post("/auth/session", {})).body as { session_id: string; secret: string };
  return new ApiClient(r.t.daemon.url, `${s.session_id}.${s.secret}`);
}

async function conversationId(r: ChannelRig): Promise<string> {
  return (await r.t.api.get("/chat/conversations")).body.conversations[0].id as string;
}

describe("buttons on the phone", () => {
  acceptance(
    SPEC,
    "a question's options are buttons on Telegram (inline keyboard) and Discord (components); a tap from anyone but the paired owner is refused",
    async () => {
      rig = await startChannelRig();
      const r = rig;
      r.say(script({ ask: { questions: [checks] } }, { text: " — done" }));
      const asked = await r.botSays((m) => m.text.startsWith("❓ [Checks] Which ones?"));
      expect(asked.text.split("\n\n").slice(-2)).toEqual(["Picked: nothing yet", "Tap options to pick them, then Send; or reply with a number (or several, like 1,3)."]);
      expect(asked.buttons!.map((row) => row.map((b) => b.text))).toEqual([["lint"], ["test"], ["e2e"], ["Send"]]);
      const [lint, , e2e, send] = asked.buttons!.map((row) => row[0]!.data);

      // A stranger's tap: acknowledged with a short notice, counted, and nothing changes.
      const before = (await r.t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored as number;
      expect(await tap(r, asked, lint!, STRANGER)).toBe("These buttons answer to this bot's owner only.");
      expect((await r.t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored).toBe(before + 1);
      expect(await tap(r, asked, send!, STRANGER)).toBe("These buttons answer to this bot's owner only.");
      const id = await conversationId(r);
      expect((await r.t.api.get(`/chat/conversations/${id}/questions`)).body.questions[0].state).toBe("open");
      expect(asked.edits).toBe(0);

      // Send with nothing picked is refused (the question needs an answer); the owner's toggles show as ✓ and in the text.
      expect(await tap(r, asked, send!)).toBe("Pick at least one option first.");
      expect(await tap(r, asked, lint!)).toBe("✓ lint");
      expect(await tap(r, asked, e2e!)).toBe("✓ e2e");
      await r.botSays((m) => m.messageId === asked.messageId && m.text.includes("Picked: lint, e2e"));
      expect(asked.buttons!.map((row) => row.map((b) => b.text))).toEqual([["✓ lint"], ["test"], ["✓ e2e"], ["Send (2)"]]);
      // Every edit of the chat keeps to the throttle (300 ms in tests), however fast the taps.
      expect(r.tg.maxEditsInWindow(OWNER.id, 250)).toBe(1);
      expect(await tap(r, asked, send!)).toBe("✅ lint, e2e");
      const done = await r.botSays((m) => m.text.includes("— done"));
      expect(done.text).toContain('answers: [{"selected":["lint","e2e"]}]');
      // The answer closes the message: buttons gone, the answer shown.
      await r.botSays((m) => m.messageId === asked.messageId && m.text.endsWith("✅ Answered from Telegram: lint, e2e"));
      expect(asked.buttons).toBeUndefined();
      expect((await r.t.api.get(`/chat/conversations/${id}/questions`)).body.questions[0]).toMatchObject({ state: "answered", by: "telegram", answers: [{ selected: ["lint", "e2e"] }] });
    },
    30_000,
  );

  acceptance(
    SPEC,
    "the progress message carries a Stop button that stops the turn",
    async () => {
      rig = await startChannelRig();
      const r = rig;
      // Six deltas over half a second: the progress message opens, is edited once they are all in, then stays quiet (5 s refresh).
      r.say(script({ repeat: 6, text: "thinking ", perSecond: 10 }, { hang: true }));
      const progress = await r.botSays((m) => m.text.startsWith("⏳ Working") && !!m.buttons);
      expect(progress.buttons).toEqual([[{ text: "⏹ Stop", data: expect.stringMatching(/^st:/) }]]);
      const stop = progress.buttons![0]![0]!.data;
      const id = await conversationId(r);
      // Still there after an edit: every edit carries the button.
      await r.botSays((m) => m.messageId === progress.messageId && m.edits > 0 && m.text.endsWith("thinking ".repeat(6).trim()));
      expect(progress.buttons).toHaveLength(1);

      // A stranger's tap does not stop it.
      expect(await tap(r, progress, stop, STRANGER)).toBe("These buttons answer to this bot's owner only.");
      expect((await r.t.api.get(`/chat/conversations/${id}`)).body.running).toBe(true);

      const editsBefore = r.tg.editTimes(OWNER.id).length;
      expect(await tap(r, progress, stop)).toBe("⏹ Stopping…");
      const stopped = await r.botSays((m) => m.text.startsWith("⏹ Stopped after"));
      expect(stopped.text).toContain("the partial reply is kept");
      // The progress message went with the turn, Stop and all, at no extra edit.
      await r.tg.waitFor((f) => !f.chat(OWNER.id).some((m) => m.messageId === progress.messageId));
      expect(r.tg.editTimes(OWNER.id).length).toBe(editsBefore);
      expect(r.botMessages().some((m) => m.buttons)).toBe(false);

      // A stale Stop (its turn ended) never stops the next turn.
      r.say(script({ hang: true }));
      const next = await r.botSays((m) => m.text.startsWith("⏳ Working") && !!m.buttons && m.messageId > progress.messageId);
      expect(await tap(r, next, stop)).toBe("Nothing to stop: that reply already ended.");
      expect((await r.t.api.get(`/chat/conversations/${id}`)).body.running).toBe(true);
      expect(await tap(r, next, next.buttons![0]![0]!.data)).toBe("⏹ Stopping…");
      await r.tg.waitFor((f) => f.chat(OWNER.id).filter((m) => m.text.startsWith("⏹ Stopped after")).length === 2);
    },
    30_000,
  );

  acceptance(
    SPEC,
    "when another surface answers first, the buttons are withdrawn and the message says who answered",
    async () => {
      rig = await startChannelRig();
      const r = rig;
      // Answered from the page first: the message names the page and the answer, its buttons gone.
      r.say(script({ ask: { questions: [yesNo] } }, { text: " — first" }));
      const first = await r.botSays((m) => m.text.startsWith("❓ [Migrate]"));
      const yes = first.buttons![0]![0]!.data;
      const id = await conversationId(r);
      const qid = (await r.t.api.get(`/chat/conversations/${id}/questions`)).body.questions[0].question_id as string;
      const page = await pageClient(r);
      expect((await page.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["Yes"] }] })).status).toBe(204);
      await r.botSays((m) => m.messageId === first.messageId && m.text.endsWith("\n\n☑️ Answered from the page: Yes"));
      expect(first.text).toContain("❓ [Migrate] Run it now?");
      expect(first.buttons).toBeUndefined();
      await r.botSays((m) => m.text.includes("— first"));
      // A late tap: acknowledged, "already answered", nothing reaches the agent.
      expect(await tap(r, first, yes)).toBe("Already answered from the page: Yes");
      expect(r.botMessages().filter((m) => m.text.includes("answers:"))).toHaveLength(1);

      // The phone's own typed number closes its message the same way.
      r.say(script({ ask: { questions: [yesNo] } }, { text: " — second" }));
      const second = await r.botSays((m) => m.text.startsWith("❓ [Migrate]") && m.messageId > first.messageId);
      r.say("2");
      await r.botSays((m) => m.text.includes("— second"));
      await r.botSays((m) => m.messageId === second.messageId && m.text.endsWith("\n\n✅ Answered from Telegram: No"));
      expect(second.buttons).toBeUndefined();

      // Closed unanswered (the turn stopped): no buttons left to tap, and a tap says so.
      r.say(script({ ask: { questions: [yesNo] } }));
      const third = await r.botSays((m) => m.text.startsWith("❓ [Migrate]") && m.messageId > second.messageId);
      const no = third.buttons![1]![0]!.data;
      r.say("/stop");
      await r.botSays((m) => m.messageId === third.messageId && m.text.endsWith("\n\n⏹ Closed without an answer: its turn ended."));
      expect(third.buttons).toBeUndefined();
      expect(await tap(r, third, no)).toBe("That question is closed: its turn has ended.");
    },
    30_000,
  );

  // The defect: a message asking several questions (or an optional one) came without buttons.
  test("several questions in one message: a toggle per option of each, Skip on the optional one, Send once each is answered", async () => {
    rig = await startChannelRig();
    const r = rig;
    r.say(script({ ask: { questions: [yesNo, { ...checks, optional: true }] } }, { text: " — done" }));
    const asked = await r.botSays((m) => m.text.startsWith("❓ The agent asks 2 questions:"));
    expect(asked.buttons!.map((row) => row.map((b) => b.text))).toEqual([["Q1 · Yes", "Q1 · No"], ["Q2 · lint", "Q2 · test", "Q2 · e2e", "Q2 · Skip"], ["Send (0/2)"]]);
    const data = (text: string) => asked.buttons!.flat().find((b) => b.text.endsWith(text))!.data;
    const send = data("Send (0/2)");

    // A stranger cannot pick for the owner.
    expect(await tap(r, asked, data("Q1 · Yes"), STRANGER)).toBe("These buttons answer to this bot's owner only.");
    expect(await tap(r, asked, send)).toBe("Answer Q1 first.");
    expect(await tap(r, asked, data("Q1 · Yes"))).toBe("✓ Q1 · Yes");
    // A single choice is a radio: No replaces Yes.
    expect(await tap(r, asked, data("Q1 · No"))).toBe("✓ Q1 · No");
    expect(await tap(r, asked, data("Q2 · Skip"))).toBe("✓ Q2 · Skip");
    await r.botSays((m) => m.messageId === asked.messageId && m.text.includes("Picked: Q1: No · Q2: skipped"));
    expect(asked.buttons!.map((row) => row.map((b) => b.text))).toEqual([["Q1 · Yes", "✓ Q1 · No"], ["Q2 · lint", "Q2 · test", "Q2 · e2e", "✓ Q2 · Skip"], ["Send (2/2)"]]);
    expect(await tap(r, asked, send)).toBe("✅ Q1 No · Q2 skipped");
    const done = await r.botSays((m) => m.text.includes("— done"));
    expect(done.text).toContain('answers: [{"selected":["No"]},{"selected":[]}]');
    await r.botSays((m) => m.messageId === asked.messageId && m.buttons === undefined && m.text.includes("Answered from Telegram"));
  }, 30_000);
});

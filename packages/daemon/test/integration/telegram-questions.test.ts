/**
 * Agent questions on the phone (issue 22, E) with a real daemon and grammY against the fake
 * Bot API: a single choice comes with its options as inline buttons and one tap answers it;
 * a question answered on another screen first loses its buttons and says which answer won,
 * and a late tap is told so too.
 */
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { OWNER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const question = {
  header: "Deploy",
  text: "Where to?",
  options: [
    { label: "staging", description: "safe" },
    { label: "prod", description: "" },
  ],
  multi_select: false,
  allow_free_text: true,
};

describe("the phone answers questions", () => {
  acceptance(
    "022-screens-true",
    "a page or phone whose answer lost the race is told which answer won, and a single-choice question answers in one tap",
    async () => {
      rig = await startChannelRig();
      const { t, tg } = rig;
      // One tap: the question arrives with one button per option.
      rig.say(script({ ask: { questions: [question] } }, { text: " — done" }));
      const asked = await rig.botSays((m) => m.text.startsWith("❓ [Deploy] Where to?"));
      expect(asked.text).toContain("Tap an option, or reply with a number, or your own words.");
      expect(asked.buttons?.map((row) => row.map((b) => b.text))).toEqual([["staging"], ["prod"]]);
      const tap = tg.userTaps({ chatId: OWNER.id, from: OWNER, messageId: asked.messageId, data: asked.buttons![1]![0]!.data });
      const done = await rig.botSays((m) => m.text.includes("— done"));
      expect(done.text).toContain('answers: [{"selected":["prod"]}]');
      await tg.waitFor((f) => f.calls("answerCallbackQuery").some((c) => c.params.callback_query_id === tap));
      expect(tg.calls("answerCallbackQuery").find((c) => c.params.callback_query_id === tap)!.params.text).toBe("✅ prod");
      // The phone's own answer: the question's message shows it, its buttons gone.
      await rig.botSays((m) => m.messageId === asked.messageId && m.text.endsWith("\n\n✅ Answered from Telegram: prod"));
      expect(asked.buttons).toBeUndefined();
      const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
      // The answer is kept in the reply, from Telegram.
      const first = (await t.api.get(`/chat/conversations/${conv.id}/messages`)).body.messages[1];
      expect(first.content[0]).toMatchObject({ type: "question", state: "answered", answers: [{ selected: ["prod"] }], by: "telegram" });

      // Answered on another screen first: the phone is told which answer won, and a late tap too.
      const sub = await t.subscribe(conv.id);
      rig.say(script({ ask: { questions: [question] } }, { text: " — second" }));
      const open = await sub.waitFor((e) => e.type === "question");
      const second = await rig.botSays((m) => m.text.startsWith("❓") && m.messageId > asked.messageId);
      const lateData = second.buttons![1]![0]!.data;
      const qid = (open.event as { question_id: string }).question_id;
      expect((await t.api.post(`/chat/conversations/${conv.id}/questions/${qid}/answer`, { answers: [{ selected: ["staging"] }] })).status).toBe(204);
      // The question's own message is edited: buttons withdrawn, the winner named.
      const told = await rig.botSays((m) => m.messageId === second.messageId && m.text.includes("☑️"));
      expect(told.text.split("\n\n").at(-1)).toBe("☑️ Answered from the CLI: staging");
      expect(told.buttons).toBeUndefined();
      const late = tg.userTaps({ chatId: OWNER.id, from: OWNER, messageId: second.messageId, data: lateData });
      await tg.waitFor((f) => f.calls("answerCallbackQuery").some((c) => c.params.callback_query_id === late));
      expect(tg.calls("answerCallbackQuery").find((c) => c.params.callback_query_id === late)!.params.text).toBe("Already answered from the CLI: staging");
      // The agent got the winner's answer, once.
      expect((await t.api.get(`/chat/conversations/${conv.id}/questions`)).body.questions[0]).toMatchObject({ state: "answered", by: "cli", answers: [{ selected: ["staging"] }] });
      sub.close();
    },
    30_000,
  );
});

/**
 * Questions find the owner (issue 27): the built `coffer chat watch` lists every open question
 * (any conversation) when it starts and a line as each one opens elsewhere, each with the command
 * that answers it; the phone's /status lists them too (grammY against the fake Bot API).
 */
import { afterAll, beforeAll, expect } from "vitest";
import type { Question } from "@coffer/protocol";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { startChannelRig, type ChannelRig } from "../../daemon/test/support/channel-rig.js";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { cofferWatching } from "./support/run-cli.js";

let rig: ChannelRig;
beforeAll(async () => {
  rig = await startChannelRig();
});
afterAll(() => rig.close());

const ask = (text: string): Question => ({ header: "", text, options: [{ label: "yes", description: "" }], multi_select: false, allow_free_text: false });

/** Starts a turn that asks and waits; resolves with the question's id once it is open. */
async function openQuestion(text: string): Promise<{ id: string; qid: string }> {
  const id = await rig.t.conversation();
  const sub = await rig.t.subscribe(id);
  await rig.t.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [ask(text)] } }) });
  const event = (await sub.waitFor((e) => e.type === "question")).event as unknown as { question_id: string };
  sub.close();
  return { id, qid: event.question_id };
}

acceptance("027-schedules", "chat watch and /status list open questions", async () => {
  const first = await openQuestion("Ship the release?");
  const watched = await rig.t.conversation();
  let second: Promise<{ id: string; qid: string }> | null = null;
  const run = await cofferWatching(rig.t, ["chat", "watch", watched], (all) => {
    // Listed at start; then a question opens in another conversation while watching.
    if (!second && all.includes("Ship the release?")) second = openQuestion("Rotate the keys?");
    return all.includes("Rotate the keys?");
  });
  const lines = run.stdout.split("\n").filter((l) => l.startsWith("❓ open question"));
  const { id, qid } = await second!;
  expect(lines).toEqual([
    expect.stringMatching(new RegExp(`^❓ open question in “.+”: Ship the release\\? — answer: coffer chat answer ${first.id} ${first.qid} --option <n>$`)),
    expect.stringMatching(new RegExp(`^❓ open question in “.+”: Rotate the keys\\? — answer: coffer chat answer ${id} ${qid} --option <n>$`)),
  ]);

  // The phone's /status lists both, oldest first, with how to answer each.
  rig.say("/status");
  const status = await rig.botSays((m) => m.text.includes("❓ Open questions (2):"));
  expect(status.text).toMatch(/1\. .+: “Ship the release\?” — answer it on the page\n2\. .+: “Rotate the keys\?” — answer it on the page$/);

  // Answered: gone from the list.
  expect((await rig.t.api.post(`/chat/conversations/${first.id}/questions/${first.qid}/answer`, { answers: [{ selected: ["yes"] }] })).status).toBe(204);
  expect((await rig.t.api.get("/chat/questions")).body.questions.map((q: { question_id: string }) => q.question_id)).toEqual([qid]);
  await rig.t.api.post(`/chat/conversations/${id}/interrupt`);
}, 60_000);

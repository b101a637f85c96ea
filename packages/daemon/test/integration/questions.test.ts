import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Question } from "@coffer/protocol";
import { acceptance } from "../support/acceptance.js";
import { COLOUR_QUESTION } from "../support/question-fixture.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "014-owner-in-the-loop";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const PICK: Question = COLOUR_QUESTION;
const MANY: Question = { ...PICK, header: "Extras", text: "Which extras?", multi_select: true, allow_free_text: false };

const send = (id: string, text: string) => t.api.post(`/chat/conversations/${id}/messages`, { text });
const answer = (id: string, qid: string, body: unknown) => t.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, body);

describe("agent questions", () => {
  acceptance(SPEC, "the agent asks; the owner's answer reaches the agent once and the turn finishes", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "let me ask. " }, { ask: { questions: [PICK, MANY] } }, { text: " thanks" }));
    const asked = (await sub.waitFor((e) => e.type === "question")).event as any;
    expect(asked.questions).toEqual([PICK, MANY]);

    // A late subscriber sees the open question in the turn's replay.
    const late = await t.subscribe(id);
    const replayed = (await late.waitFor((e) => e.type === "question")).event as any;
    expect(replayed.question_id).toBe(asked.question_id);
    late.close();

    const answers = [{ selected: ["Blue"], text: "navy if you can" }, { selected: ["Red", "Blue"] }];
    const res = await answer(id, asked.question_id, { answers, by: "cli" });
    expect(res.status).toBe(204);
    const closed = (await sub.waitFor((e) => e.type === "question_answered")).event;
    expect(closed).toEqual({ type: "question_answered", question_id: asked.question_id, answers, by: "cli" });
    await sub.waitFor((e) => e.type === "turn_done");
    const reply = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
    expect(reply.status).toBe("complete");
    // The question stays in the reply where it was asked, answered, with the verified surface.
    expect(reply.content).toEqual([
      { type: "text", text: "let me ask. " },
      { type: "question", question_id: asked.question_id, questions: [PICK, MANY], state: "answered", answers, by: "cli", tool_use_id: null },
      { type: "text", text: `answers: ${JSON.stringify(answers)} thanks` },
    ]);
    // Exactly once: the agent got one answer (one text), the bus one question_answered.
    expect(sub.types().filter((x) => x === "question_answered")).toHaveLength(1);
    sub.close();
  });

  test("a question answered after a steer split the reply is kept answered in the reply that asked it", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "Hm. " }, { ask: { questions: [PICK] } }, { text: "done" }));
    const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "also this", delivery: "steer" });
    await sub.waitFor((e) => e.type === "steered");
    expect((await answer(id, qid, { answers: [{ selected: ["Red"] }] })).status).toBe(204);
    await sub.waitFor((e) => e.type === "turn_done");
    const messages = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages;
    expect(messages[1].content).toEqual([
      { type: "text", text: "Hm. " },
      { type: "question", question_id: qid, questions: [PICK], state: "answered", answers: [{ selected: ["Red"] }], by: "cli", tool_use_id: null },
    ]);
    expect(messages[2]).toMatchObject({ role: "user", content: [{ type: "text", text: "also this" }] });
    expect(messages[3].content.some((b: any) => b.type === "question")).toBe(false);
    sub.close();
  });

  acceptance(SPEC, "two surfaces answer at once: one wins, the other gets 409 with the winning answer", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ ask: { questions: [PICK] } }));
    const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
    const [a, b] = await Promise.all([
      answer(id, qid, { answers: [{ selected: ["Red"] }], by: "web" }),
      answer(id, qid, { answers: [{ selected: ["Blue"] }], by: "telegram" }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([204, 409]);
    const loser = a.status === 409 ? a : b;
    // Both came over the daemon token: `by` is what the daemon verified (issue 21, W12), not the body's claim.
    const winner = a.status === 204 ? { label: "Red", by: "cli" } : { label: "Blue", by: "cli" };
    expect(loser.body.error).toMatchObject({
      code: "QUESTION_ALREADY_ANSWERED",
      details: { question_id: qid, answers: [{ selected: [winner.label] }], by: winner.by },
    });
    await sub.waitFor((e) => e.type === "turn_done");
    const reply = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
    expect(reply.content[0]).toMatchObject({ type: "question", state: "answered", answers: [{ selected: [winner.label] }], by: winner.by });
    expect(reply.content[1].text).toBe(`answers: ${JSON.stringify([{ selected: [winner.label] }])}`);
    expect(sub.types().filter((x) => x === "question_answered")).toHaveLength(1);
    sub.close();
  });

  acceptance(SPEC, "stop while the agent waits for an answer cancels the question", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "asking" }, { ask: { questions: [PICK] } }, { text: "never" }));
    const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
    expect((await t.api.post(`/chat/conversations/${id}/interrupt`)).status).toBe(204);
    expect((await sub.waitFor((e) => e.type === "question_answered")).event).toEqual({
      type: "question_answered",
      question_id: qid,
      answers: null,
    });
    expect((await sub.waitFor((e) => e.type === "turn_done")).event).toMatchObject({ stop_reason: "interrupted" });
    const late = await answer(id, qid, { answers: [{ selected: ["Red"] }] });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "QUESTION_ALREADY_ANSWERED", details: { question_id: qid, answers: null } });
    const reply = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
    // Kept, as not answered: the thread shows what was asked and that the stop came first.
    expect(reply.content).toEqual([
      { type: "text", text: "asking" },
      { type: "question", question_id: qid, questions: [PICK], state: "cancelled", answers: null, by: null, tool_use_id: null },
    ]);
    sub.close();
  });

  test("answers are checked against the question: count, labels, one option, free text", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ ask: { questions: [PICK, MANY] } }));
    const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
    const bad = [
      { answers: [{ selected: ["Red"] }] },
      { answers: [{ selected: ["Green"] }, { selected: ["Red"] }] },
      { answers: [{ selected: ["Red", "Blue"] }, { selected: ["Red"] }] },
      { answers: [{ selected: ["Red"] }, { selected: [], text: "mine" }] },
      { answers: [{ selected: [] }, { selected: ["Red"] }] },
    ];
    for (const body of bad) {
      const res = await answer(id, qid, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await answer(id, "nope", { answers: [{ selected: ["Red"] }] })).body.error.code).toBe("QUESTION_NOT_FOUND");
    // Still open after the refusals: a valid answer closes it.
    expect((await answer(id, qid, { answers: [{ selected: [], text: "purple" }, { selected: ["Red"] }] })).status).toBe(204);
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
  });
});

test("waiting for the owner is not agent silence: the watchdog leaves an asking turn alone", async () => {
  const local = await startTestDaemon({ timings: { flushIntervalMs: 500, watchdogMs: 150, stopDeadlineMs: 1000 } });
  try {
    const asking = await local.conversation();
    const silent = await local.conversation();
    const subAsk = await local.subscribe(asking);
    const subSilent = await local.subscribe(silent);
    await local.api.post(`/chat/conversations/${asking}/messages`, { text: script({ ask: { questions: [PICK] } }) });
    const qid = ((await subAsk.waitFor((e) => e.type === "question")).event as any).question_id;
    // A silent turn started after the question was asked times out: a full watchdog period
    // has passed, and the asking turn is still waiting.
    await local.api.post(`/chat/conversations/${silent}/messages`, { text: script({ hang: true }) });
    expect((await subSilent.waitFor((e) => e.type === "turn_error")).event).toMatchObject({ code: "turn_timeout" });
    expect(subAsk.types()).not.toContain("turn_error");
    expect((await local.api.post(`/chat/conversations/${asking}/questions/${qid}/answer`, { answers: [{ selected: ["Red"] }] })).status).toBe(204);
    expect((await subAsk.waitFor((e) => e.type === "turn_done")).event).toMatchObject({ stop_reason: "end_turn" });
    subAsk.close();
    subSilent.close();
  } finally {
    await local.close();
  }
});

acceptance(SPEC, "a daemon restart while the agent waits leaves no open question: the turn fails as today", async () => {
  const first = await startTestDaemon();
  const home = first.home;
  const id = await first.conversation();
  const sub = await first.subscribe(id);
  await first.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "asking" }, { ask: { questions: [PICK] } }) });
  const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
  expect((await first.api.get(`/chat/conversations/${id}/questions`)).body.questions).toMatchObject([{ question_id: qid, state: "open" }]);
  sub.close();
  await first.stop();

  const second = await startTestDaemon({ home });
  try {
    expect((await second.api.get(`/chat/conversations/${id}/questions`)).body).toEqual({ questions: [] });
    const late = await second.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["Red"] }] });
    expect(late.status).toBe(404);
    const reply = (await second.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
    expect(reply).toMatchObject({ status: "failed", content: [{ type: "text", text: "asking" }, { type: "question", question_id: qid, state: "cancelled" }] });
    expect(["daemon_shutdown", "daemon_restart"]).toContain(reply.error.code);
  } finally {
    await second.close();
  }
});

/**
 * An MCP server's form elicitation with the REAL `codex` app-server: a real MCP server
 * (Streamable HTTP on 127.0.0.1, the owner's config.toml names it) whose tool asks its client
 * for a form; Codex forwards it to Coffer (mcpServer/elicitation/request), Coffer puts it to
 * the owner as a question, and the answer goes back as the elicitation's `content`. The fake
 * Responses server scripts the model calling that tool.
 */
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAgentHarness, textOf, type AgentHarness } from "../fakes/agent-harness.js";
import { ElicitingServer } from "../fixtures/mcp/eliciting-server.js";
import { acceptance } from "../support/acceptance.js";

const TURN = 120_000;
const SPEC = "014-owner-in-the-loop";
// A model slug Codex does not know keeps MCP tools inline (no tool search), so the fake model
// can call `mcp__booking` / `book_table` directly.
const MODEL = { model: "gpt-fake" };
const CALL = "CALL_MCP mcp__booking book_table {}";
const isEnd = (e: { type: string }) => e.type === "turn_done" || e.type === "turn_error";

// Codex hands the schema on with its properties in key order (note, size, terrace), not the
// server's (size, terrace, note); each field is one question.
const FORM_QUESTIONS = [
  // Not in the schema's `required` list: the owner may leave it empty.
  { header: "Note", text: "Booking a table — Anything the restaurant should know", options: [], multi_select: false, allow_free_text: true, optional: true },
  {
    header: "Table size",
    text: "Booking a table",
    options: [
      { label: "Two people", description: "" },
      { label: "Four people", description: "" },
    ],
    multi_select: false,
    allow_free_text: false,
  },
  {
    header: "Terrace",
    text: "Booking a table — Sit outside?",
    options: [
      { label: "Yes", description: "" },
      { label: "No", description: "" },
    ],
    multi_select: false,
    allow_free_text: false,
  },
];

describe("codex (real CLI): an MCP server's form elicitation", () => {
  let h: AgentHarness<"codex">;
  let mcp: ElicitingServer;
  beforeAll(async () => {
    mcp = await ElicitingServer.start();
    h = await startAgentHarness("codex");
    // The owner's own MCP server, in their config.toml (Coffer never writes it; the app-server
    // starts on the first turn, so it reads this).
    await appendFile(join(h.agentHome, "config.toml"), `\n[mcp_servers.booking]\nurl = "${mcp.url}"\n`);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await mcp?.close();
  }, 60_000);

  /** Sends the tool call and returns the question Coffer put to the owner. */
  async function askForm(id: string, sub: Awaited<ReturnType<AgentHarness["daemon"]["subscribe"]>>): Promise<string> {
    await h.send(id, CALL);
    const first = await sub.waitFor((e) => e.type === "question" || isEnd(e));
    expect(first.event.type, JSON.stringify(first.event)).toBe("question");
    expect((first.event as any).questions).toEqual(FORM_QUESTIONS);
    return (first.event as any).question_id;
  }

  /** A new conversation whose turn's form waits for the owner; `seen` counts the server's outcomes before it. */
  async function formOnNewConversation() {
    const id = await h.conversation(MODEL);
    const sub = await h.daemon.subscribe(id);
    const seen = mcp.outcomes.length;
    return { id, sub, seen, qid: await askForm(id, sub) };
  }

  acceptance(
    SPEC,
    "a form elicitation from an MCP server under Codex (mcpServer/elicitation/request) is put to the owner as a question",
    async () => {
      const { id, sub, seen, qid } = await formOnNewConversation();
      expect(mcp.outcomes).toHaveLength(seen); // the server is still waiting for the owner
      const before = h.fake.requests.length;
      const answers = [{ selected: [], text: "by the window" }, { selected: ["Four people"] }, { selected: ["Yes"] }];
      const res = await h.daemon.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers });
      expect(res.status).toBe(204);

      const got = await mcp.outcome(seen);
      expect(got).toEqual({ result: { action: "accept", content: { note: "by the window", size: "four", terrace: true } } });
      expect((await sub.waitFor(isEnd)).event.type).toBe("turn_done");

      // The tool's result reaches the model once, in the one request after the answer.
      const after = h.fake.requests.slice(before);
      expect(after).toHaveLength(1);
      const outputs = after[0]!.input.filter((i) => i.type === "function_call_output");
      expect(outputs).toHaveLength(1);
      const expected = `booking form came back: ${JSON.stringify(got)}`;
      expect((outputs[0]!.output as { text?: string }[]).map((o) => o.text)).toContain(expected);
      expect(textOf((await h.messages(id)).at(-1))).toContain(expected);
      expect(mcp.outcomes).toHaveLength(seen + 1);
      // Codex's own approval of the MCP call (also an elicitation, _meta.codex_approval_kind) is
      // granted by the policy, never put to the owner: one question only.
      expect(sub.events.filter((e) => e.event.type === "question")).toHaveLength(1);
      expect((await h.daemon.api.get(`/chat/conversations/${id}/questions`)).body.questions).toMatchObject([{ question_id: qid, state: "answered" }]);
      sub.close();
    },
    TURN,
  );

  acceptance(
    SPEC,
    "stop while an MCP server's form waits for the owner under Codex: the server gets cancel, no question stays open, the next turn runs",
    async () => {
      const { id, sub, seen, qid } = await formOnNewConversation();
      expect((await h.daemon.api.post(`/chat/conversations/${id}/interrupt`)).status).toBe(204);
      expect((await sub.waitFor((e) => e.type === "question_answered")).event).toEqual({ type: "question_answered", question_id: qid, answers: null });
      expect((await sub.waitFor(isEnd)).event).toMatchObject({ type: "turn_done", stop_reason: "interrupted" });
      expect(await mcp.outcome(seen)).toEqual({ result: { action: "cancel" } });
      expect((await h.daemon.api.get(`/chat/conversations/${id}/questions`)).body.questions).toMatchObject([{ question_id: qid, state: "cancelled" }]);

      await h.send(id, "after the stop");
      const ends = await sub.waitForCount(isEnd, 2);
      expect(ends[1]!.event.type).toBe("turn_done");
      expect(textOf((await h.messages(id)).at(-1))).toBe("Echo: after the stop");
      sub.close();
    },
    TURN,
  );

  test("an optional field of the form may be left empty (it stays out of the content); an empty required one is refused, naming it", async () => {
    const { id, sub, seen, qid } = await formOnNewConversation();
    const url = `/chat/conversations/${id}/questions/${qid}/answer`;
    const missing = await h.daemon.api.post(url, { answers: [{ selected: [], text: "" }, { selected: [] }, { selected: ["Yes"] }] });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { question_id: qid } });
    expect(missing.body.error.message).toContain("answer 2 (Table size) is required");
    expect(mcp.outcomes).toHaveLength(seen); // still open: the owner can answer again

    const answers = [{ selected: [], text: "" }, { selected: ["Two people"] }, { selected: ["No"] }];
    expect((await h.daemon.api.post(url, { answers })).status).toBe(204);
    expect(await mcp.outcome(seen)).toEqual({ result: { action: "accept", content: { size: "two", terrace: false } } });
    expect((await sub.waitFor(isEnd)).event.type).toBe("turn_done");
    sub.close();
  }, TURN);

  test("a thread resumed by a new app-server (daemon restart) still forwards the form to the owner", async () => {
    const id = await h.conversation(MODEL);
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "hello");
    expect((await sub.waitFor(isEnd)).event.type).toBe("turn_done");
    sub.close();
    await h.restart(); // thread/resume must carry the approval policy: Codex does not keep it

    const sub2 = await h.daemon.subscribe(id);
    const seen = mcp.outcomes.length;
    const qid = await askForm(id, sub2);
    const answers = [{ selected: [], text: "quiet corner" }, { selected: ["Two people"] }, { selected: ["No"] }];
    expect((await h.daemon.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers })).status).toBe(204);
    expect(await mcp.outcome(seen)).toEqual({ result: { action: "accept", content: { note: "quiet corner", size: "two", terrace: false } } });
    expect((await sub2.waitFor(isEnd)).event.type).toBe("turn_done");
    sub2.close();
  }, TURN);
});

/**
 * Issue 21, W7: a credential value in an agent's output must not reach the live stream, the
 * stored rows (the DB and its WAL), the audit log or Telegram — it is scrubbed where the
 * agent's events enter a turn, before anything is folded, stored, published or relayed.
 *
 * The real `claude` CLI runs against the fake Anthropic server, which "knows" a credential the
 * owner stored in Coffer (as if it had read it in a file) and puts it in a Bash tool input, so
 * it also comes back in the tool output and in the reply; then it says the value again in
 * 5-character deltas, so the secret arrives split across deltas. The conversation is bound to
 * a Telegram chat (the fake Bot API), and a page-style SSE client watches it. A scripted agent
 * on a second conversation covers what the CLI cannot be made to do on cue: an adapter's audit
 * row quoting the value, an error terminal, and a question to the owner holding it.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Question } from "@coffer/protocol";
import { afterEach, expect, test } from "vitest";
import { makeAgentRig, type AgentRig } from "../fakes/agent-rig.js";
import { startAgentHarness } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";
import { startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";
import { makeHome, startTestDaemon } from "../support/test-daemon.js";
import type { SseSubscription } from "../support/http-client.js";

const SECRET = `sk-planted-${randomBytes(16).toString("hex")}`;
const MARK = "[credential:planted]";

/** The secret in every form it is commonly leaked in. */
function forms(secret: string): string[] {
  const b = Buffer.from(secret);
  return [secret, b.toString("base64"), b.toString("base64url"), b.toString("hex"), b.toString("hex").toUpperCase(), encodeURIComponent(secret)];
}
const NEEDLES = forms(SECRET);
const leaks = (text: string) => NEEDLES.filter((n) => text.includes(n));

function scanDir(dir: string, hits: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const entry = statSync(path);
    if (entry.isDirectory()) {
      scanDir(path, hits);
      continue;
    }
    if (!entry.isFile()) continue; // daemon.sock: a socket holds no bytes at rest
    const bytes = readFileSync(path);
    for (const n of NEEDLES) if (bytes.includes(Buffer.from(n))) hits.push(`${path.slice(dir.length)}: ${n.slice(0, 10)}…`);
  }
  return hits;
}

const ASK: Question = {
  header: "Key",
  text: "Rotate {{PLANTED}} now?",
  options: [
    { label: "Yes", description: "rotate {{PLANTED}}" },
    { label: "No", description: "keep it" },
  ],
  multi_select: false,
  allow_free_text: false,
};

let agent: AgentRig<"claude_code"> | null = null;
let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  await agent?.close();
  rig = null;
  agent = null;
});

acceptance(
  "021-hardening",
  "a credential value in an agent's output is scrubbed before it is stored, streamed or relayed, and audit rows are stored scrubbed",
  async () => {
    agent = await makeAgentRig("claude_code", { fake: { knows: { PLANTED: SECRET } } });
    rig = await startChannelRig({ env: agent.env }, { defaultAgent: "claude_code" });
    const { t, tg } = rig;
    t.scripted.knows = { PLANTED: SECRET };
    expect((await t.api.put("/credentials/planted", { secret: SECRET })).status).toBe(200);

    // The owner's first message on the phone opens the bound conversation; a page watches it.
    rig.say("hello");
    await rig.botSays((m) => m.text.includes("Fake reply to: hello"));
    const bound = (await t.api.get("/chat/conversations")).body.conversations.find((c: any) => c.agent_key === "claude_code");
    const page = await t.subscribe(bound.id);

    // Turn 1: the value in a tool input, its output and the reply.
    rig.say("RUN: echo {{PLANTED}}");
    const toolSaid = await rig.botSays((m) => m.text.startsWith("Tool said: "));
    expect(toolSaid.text).toBe(`Tool said: ${MARK}`);
    // Turn 2: the value split across 5-character deltas.
    rig.say("SAY: the key is {{PLANTED}} so keep it safe");
    const said = await rig.botSays((m) => m.text.startsWith("the key is "));
    expect(said.text).toBe(`the key is ${MARK} so keep it safe`);
    await page.waitForCount((e) => e.type === "turn_done", 2);

    // The agent really did produce the value (so the scans below are not vacuous).
    expect(agent.fake.requests.some((r) => r.toolResults.some((tr) => tr.text.includes(SECRET)))).toBe(true);
    const deltas = page.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as { text: string }).text);
    expect(deltas.join("")).toContain(`the key is ${MARK} so keep it safe`);
    // Every piece went out scrubbed, not only their sum: no delta carries the start of the value.
    expect(deltas.filter((d) => d.includes("sk-pl"))).toEqual([]);
    const call = page.events.find((e) => e.event.type === "tool_call")!.event as any;
    expect(call.tool_input.command).toBe(`echo ${MARK}`);
    const result = page.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(JSON.stringify(result.output)).toContain(MARK);

    // A scripted agent: an adapter's audit row, a question and an error, each quoting the value.
    const other = await t.conversation();
    const watcher = await t.subscribe(other);
    await t.api.post(`/chat/conversations/${other}/messages`, {
      text: script(
        { text: "reading .env: " },
        { text: "{{PLANTED}}" },
        { tool: { id: "r1", name: "Read", input: { file_path: ".env", note: "{{PLANTED}}" }, output: { content: "API_KEY={{PLANTED}}" } } },
        { audit: { action: "codex_thread_resume_lost", details: { reason: "resume failed for token {{PLANTED}}" } } },
        { ask: { questions: [ASK] } },
        { error: { code: "agent_error", message: "the agent crashed printing {{PLANTED}}" } },
      ),
    });
    const asked = (await watcher.waitFor((e) => e.type === "question")).event as any;
    expect(asked.questions[0].text).toBe(`Rotate ${MARK} now?`);
    expect((await t.api.post(`/chat/conversations/${other}/questions/${asked.question_id}/answer`, { answers: [{ selected: ["No"] }], by: "cli" })).status).toBe(204);
    const failed = (await watcher.waitFor((e) => e.type === "turn_error")).event as any;
    expect(failed.message).toBe(`the agent crashed printing ${MARK}`);

    // The live streams, as they came over the wire.
    for (const sub of [page, watcher] as SseSubscription[]) {
      expect(sub.raw).toContain(MARK);
      expect(leaks(sub.raw)).toEqual([]);
    }
    // Everything the fake Bot API received from the daemon (sends, edits, alerts).
    const relayed = JSON.stringify(tg.sent.map((c) => c.params));
    expect(relayed).toContain(MARK);
    expect(leaks(relayed)).toEqual([]);

    // The stored rows: replies and audit, read from the database itself.
    const db = new Database(join(t.home, "coffer.db"), { readonly: true });
    const stored = (db.prepare("SELECT content FROM messages WHERE role = 'assistant'").all() as { content: string }[]).map((r) => r.content).join("\n");
    const audit = (db.prepare("SELECT action, details FROM audit_log").all() as { action: string; details: string }[]);
    db.close();
    expect(stored).toContain(`Tool said: ${MARK}`);
    expect(stored).toContain(`reading .env: ${MARK}`);
    expect(leaks(stored)).toEqual([]);
    expect(audit.find((r) => r.action === "codex_thread_resume_lost")?.details).toContain(`resume failed for token ${MARK}`);
    expect(leaks(JSON.stringify(audit))).toEqual([]);

    // And every byte of the data dir, the WAL included, while live and after the daemon stops.
    expect(readdirSync(t.home)).toEqual(expect.arrayContaining(["coffer.db", "coffer.db-wal"]));
    expect(scanDir(t.home)).toEqual([]);
    page.close();
    watcher.close();
    await t.stop();
    expect(scanDir(t.home)).toEqual([]);
  },
  90_000,
);

test("after a restart, a stored value is scrubbed from agent output before anything has used it", async () => {
  const home = await makeHome();
  const first = await startTestDaemon({ home });
  expect((await first.api.put("/credentials/planted", { secret: SECRET })).status).toBe(200);
  await first.stop();
  // A new daemon on the same data: nothing has resolved the credential in this run.
  const t = await startTestDaemon({ home });
  try {
    t.scripted.knows = { PLANTED: SECRET };
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "found in .env: {{PLANTED}}" }) });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    expect(sub.raw).toContain(`found in .env: ${MARK}`);
    expect(leaks(sub.raw)).toEqual([]);
  } finally {
    await t.close();
  }
});

test("a reply closed by a steer while it holds the start of a value closes with the ref, not the start", async () => {
  const t = await startTestDaemon();
  try {
    expect((await t.api.put("/credentials/planted", { secret: SECRET })).status).toBe(200);
    t.scripted.knows = { PLANTED: SECRET };
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    // The agent stops mid-value (its first 16 characters) and waits; a steer closes that reply.
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "the key: {{PLANTED:0:16}}" }, { await_steer: true }) });
    await sub.waitFor((e) => e.type === "turn_start");
    expect((await t.api.post(`/chat/conversations/${id}/messages`, { text: "stop there", delivery: "steer" })).status).toBe(202);
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    const messages = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages as { role: string; stop_reason: string | null; content: { text?: string }[] }[];
    const closed = messages.find((m) => m.role === "assistant" && m.stop_reason === "steered")!;
    expect(closed.content).toEqual([{ type: "text", text: `the key: ${MARK}` }]);
    const wire = sub.raw;
    expect(wire).toContain(`"steered"`);
    expect(wire).not.toContain(SECRET.slice(0, 16));
  } finally {
    await t.close();
  }
});

test("Codex too: the value in its command, the command's output and an echo split across deltas is scrubbed on the wire and at rest", async () => {
  const h = await startAgentHarness("codex", { fake: { knows: { PLANTED: SECRET } } });
  try {
    expect((await h.daemon.api.put("/credentials/planted", { secret: SECRET })).status).toBe(200);
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    const ended = (e: { type: string }) => e.type === "turn_done" || e.type === "turn_error";
    await h.send(id, "USE_TOOL echo {{PLANTED}}");
    await sub.waitForCount(ended, 1);
    // "Echo: " and the text in two halves: the value arrives cut in two deltas.
    await h.send(id, "{{PLANTED}}");
    await sub.waitForCount(ended, 2);
    expect(h.fake.requests.some((r) => JSON.stringify(r.input).includes(SECRET))).toBe(true); // it really ran
    const call = sub.events.find((e) => e.event.type === "tool_call")!.event as any;
    expect(JSON.stringify(call.tool_input)).toContain(MARK);
    const texts = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as { text: string }).text);
    expect(texts.join("")).toContain(`Echo: ${MARK}`);
    expect(sub.raw).toContain(MARK);
    expect(leaks(sub.raw)).toEqual([]);
    sub.close();
    expect(scanDir(h.daemon.home)).toEqual([]);
  } finally {
    await h.close();
  }
}, 90_000);

/**
 * Issue 22 A: a steer before, during or after a tool call, with the REAL agent CLIs against
 * their fake model servers. Whatever the moment, the thread holds ONE tool card with the
 * outcome the agent reported, and the steered message (marked steered) where it entered the
 * turn — and the stored rows, the page's own fold of the live events (apply-event.ts, the
 * page's code) and `coffer chat show` (the built CLI) all say the same.
 *
 * The moments are held by the fakes, never by time: `HOLD_TOOL` holds the model's reply
 * before its tool call, a FIFO holds the running command, and a tool output "GATE <name>"
 * holds the reply after the tool.
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { toSegments, type ChatEvent, type MessageOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { applyEvent, EMPTY_VIEW } from "../../../web/src/chat/live/apply-event.js";
import { mergeThread } from "../../../web/src/chat/live/thread-items.js";
import { TurnPrinter } from "../../../cli/src/turn-printer.js";
import { AGENTS, startAgentHarness, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import type { FakeAnthropic } from "../fakes/fake-anthropic.js";
import type { FakeOpenAiResponses } from "../fakes/fake-openai-responses.js";
import type { SseSubscription } from "../support/http-client.js";
import { acceptance } from "../support/acceptance.js";

const TITLE =
  "a steer before, during or after a tool call leaves one tool card with its real outcome and the steered message where it entered the turn, alike live, reloaded, in chat show and stored";
const TURN = 120_000;
const CLI = fileURLToPath(new URL("../../../cli/dist/main.js", import.meta.url));
const TOOL_NAME: Record<AgentKey, string> = { claude_code: "Bash", codex: "shell" };
const isTerminal = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";

type Moment = "before" | "during" | "after";

/** `coffer chat show <id>` as the owner would run it: the built CLI against this daemon. */
function chatShow(h: AgentHarness, id: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "--url", h.daemon.daemon.url, "--token", h.daemon.daemon.token, "chat", "show", id], {
      env: { ...process.env, COFFER_HOME: h.daemon.home },
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`chat show exited ${code}: ${err}`))));
  });
}

/** Everything every surface must agree on, checked against the stored rows. */
async function expectOneCardEverywhere(h: AgentHarness, agent: AgentKey, id: string, sub: SseSubscription, marker: string, moment: Moment) {
  const stored = (await h.messages(id)) as MessageOut[];

  // Stored: no empty reply, every reply settled, one tool call in the whole thread, its result
  // in the same row, and what the agent reported (the command ran and succeeded).
  const replies = stored.filter((m) => m.role === "assistant");
  expect(replies.every((m) => m.content.length > 0 && m.status === "complete")).toBe(true);
  const cards = stored.flatMap((m, row) => toSegments(m.content).flatMap((s) => (s.kind === "tool" ? [{ row, s }] : [])));
  expect(cards).toHaveLength(1);
  const [{ row: toolRow, s: card }] = cards as [{ row: number; s: Extract<ReturnType<typeof toSegments>[number], { kind: "tool" }> }];
  expect(card.use.tool_name).toBe(TOOL_NAME[agent]);
  expect(card.use.tool_input).not.toBeNull(); // a real call, not a result that lost it
  expect(card.result).not.toBeNull();
  expect(card.result!.error).toBeNull();

  // The steered message: stored once, marked, where it entered — ahead of a tool call that had
  // not started, after one that was running or done.
  const steeredRows = stored.flatMap((m, row) => (m.steered ? [row] : []));
  expect(steeredRows).toHaveLength(1);
  const steeredRow = steeredRows[0]!;
  expect(stored[steeredRow]!.role).toBe("user");
  expect(stored[steeredRow]!.content).toEqual([{ type: "text", text: `also say ${marker}` }]);
  if (moment === "before") expect(steeredRow).toBeLessThan(toolRow);
  else expect(steeredRow).toBeGreaterThan(toolRow);
  expect(stored.map((m) => m.role)).toEqual(moment === "before" ? ["user", "user", "assistant"] : ["user", "assistant", "user", "assistant"]);

  // Live: the page's fold of the events this subscriber saw builds the same rows, in order.
  const view = sub.events.map((e) => e.event).reduce(applyEvent, EMPTY_VIEW);
  expect(view.turns.every((t) => t.phase === "done")).toBe(true);
  const live = mergeThread([], view.turns).map((item) =>
    item.kind === "message" ? { id: item.message.id, content: item.message.content, steered: item.message.steered ?? false } : { id: item.key, content: [...item.turn.blocks], steered: false },
  );
  expect(live).toEqual(stored.map((m) => ({ id: m.id, content: m.content, steered: m.steered ?? false })));
  // Reloaded: the page merges the fetched rows with what it saw live — the same rows again.
  expect(mergeThread(stored, view.turns).map((i) => i.key)).toEqual(stored.map((m) => m.id));

  // chat watch: the live transcript (the CLI's printer fed the same events) puts the steered
  // message where the thread has it — after the tool's result line, or before its call.
  const chunks: string[] = [];
  const printer = new TurnPrinter({ write: (c: string) => chunks.push(c) } as unknown as NodeJS.WritableStream);
  for (const e of sub.events) printer.print(e.event);
  const watched = chunks.join("");
  const resultLine = watched.search(new RegExp(`\n  ✓ ${TOOL_NAME[agent]}\n`));
  const steerLine = watched.indexOf("── you (steered into the running turn)");
  expect(resultLine).toBeGreaterThan(0);
  expect(steerLine).toBeGreaterThan(0);
  expect(steerLine > resultLine).toBe(moment !== "before");

  // chat show: one line for the call with its outcome, the steered message marked, in order.
  const shown = await chatShow(h, id);
  const toolLines = shown.split("\n").filter((l) => l.includes(` ${TOOL_NAME[agent]}`) && /^\s+[⚙✓✗⏹]/.test(l));
  expect(toolLines).toHaveLength(1);
  expect(toolLines[0]).toMatch(new RegExp(`^  ✓ ${TOOL_NAME[agent]} `));
  const steeredAt = shown.indexOf("── you (steered into the running turn)");
  expect(steeredAt).toBeGreaterThan(0);
  expect(shown.indexOf(toolLines[0]!) > steeredAt).toBe(moment === "before");
}

describe.each(AGENTS)("%s (real CLI): a steer keeps one tool card", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  const steer = async (id: string, marker: string) => {
    const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: `also say ${marker}`, delivery: "steer" });
    expect(ack).toMatchObject({ status: 202, body: { queued: false, steered: true } });
  };
  const gate = (name: string) => (agent === "claude_code" ? (h.fake as FakeAnthropic).open(name) : (h.fake as FakeOpenAiResponses).open(name));

  acceptance(
    "022-screens-true",
    TITLE,
    async () => {
      // before: the model is asked, and holds its answer (the tool call) until we let it go.
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      const name = `before-${agent}`;
      const marker = `STEER-before-${agent}`;
      await h.send(id, `HOLD_TOOL ${name} echo before-ran`);
      if (agent === "claude_code") await (h.fake as FakeAnthropic).waitForRequest((r) => r.lastUser.text.startsWith("HOLD_TOOL"));
      else await (h.fake as FakeOpenAiResponses).waitForRequest((r) => r.userText.startsWith("HOLD_TOOL"));
      await steer(id, marker);
      gate(name);
      expect((await sub.waitFor(isTerminal)).event.type).toBe("turn_done");
      await expectOneCardEverywhere(h, agent, id, sub, marker, "before");
      sub.close();
    },
    TURN,
  );

  acceptance(
    "022-screens-true",
    TITLE,
    async () => {
      // during: the command blocks on a FIFO; the steer lands while its card says running.
      const fifo = join(h.workDir, `card-gate-${agent}`);
      execFileSync("mkfifo", [fifo]);
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      const marker = `STEER-during-${agent}`;
      await h.send(id, agent === "claude_code" ? `RUN: cat ${fifo}` : `USE_TOOL cat ${fifo}`);
      await sub.waitFor((e) => e.type === "tool_call");
      await steer(id, marker);
      const steered = (await sub.waitFor((e) => e.type === "steered")).event;
      expect(steered).toMatchObject({ previous_state: "running_tool" });
      // While the tool runs, the reply holding its call is still open: a reloaded page sees it running.
      const mid = (await h.messages(id)) as MessageOut[];
      expect(mid.map((m) => [m.role, m.status, m.steered ?? false])).toEqual([
        ["user", "complete", false],
        ["assistant", "streaming", false],
        ["user", "complete", true],
        ["assistant", "streaming", false],
      ]);
      await writeFile(fifo, "tool-output\n");
      expect((await sub.waitFor(isTerminal)).event.type).toBe("turn_done");
      await expectOneCardEverywhere(h, agent, id, sub, marker, "during");
      const stored = (await h.messages(id)) as MessageOut[];
      expect(stored[1]!.stop_reason).toBe("steered");
      sub.close();
    },
    TURN,
  );

  acceptance(
    "022-screens-true",
    TITLE,
    async () => {
      // after: the tool is done and the model's answer to it is held mid-stream.
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      const name = `after-${agent}`;
      const marker = `STEER-after-${agent}`;
      await h.send(id, agent === "claude_code" ? `RUN: echo GATE ${name}` : `USE_TOOL echo GATE ${name}`);
      await sub.waitFor((e) => e.type === "text_delta" && e.text.includes(name));
      await steer(id, marker);
      gate(name);
      expect((await sub.waitFor(isTerminal)).event.type).toBe("turn_done");
      await expectOneCardEverywhere(h, agent, id, sub, marker, "after");
      sub.close();
    },
    TURN,
  );
});

/**
 * Every way a Claude Code turn can fail ends as exactly one turn_error with a clear
 * code, and the conversation takes the next turn. The real `claude` runs against the
 * fake Anthropic server; faults the real CLI cannot be made to show (a missing binary,
 * a non-zero exit at start, garbage on stdout) use a shell script in its place on PATH.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";

let h: AgentHarness<"claude_code">;
beforeAll(async () => {
  h = await startAgentHarness("claude_code", { fake: { rejectModels: ["claude-nope"] } });
}, 30_000);
afterAll(() => h?.close(), 30_000);

const TURN = 60_000;
type Sub = Awaited<ReturnType<AgentHarness<"claude_code">["daemon"]["subscribe"]>>;
const isTerminal = (e: ChatEvent) => isTerminalEvent(e);
const terminals = (sub: Sub) => sub.events.filter((e) => isTerminal(e.event)).map((e) => e.event);
const textOf = (m: any) => m.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("");

async function turn(harness: AgentHarness<"claude_code">, sub: Sub, id: string, text: string) {
  const before = terminals(sub).length;
  await harness.send(id, text);
  return (await sub.waitForCount(isTerminal, before + 1)).at(-1)!.event;
}

/**
 * Resolves once the CLI's own transcript (what a resume reads) holds `text`. The CLI writes
 * it on its own schedule; a process killed before then leaves nothing to resume, and the
 * adapter rightly starts a fresh session — a different case, tested below.
 */
async function transcriptHolds(configDir: string, text: string): Promise<void> {
  const root = join(configDir, "projects");
  for (;;) {
    const dirs = await readdir(root).catch(() => [] as string[]);
    for (const dir of dirs) {
      for (const file of await readdir(join(root, dir)).catch(() => [] as string[])) {
        if ((await readFile(join(root, dir, file), "utf8").catch(() => "")).includes(text)) return;
      }
    }
    await new Promise((r) => setTimeout(r, 20)); // polling a file: the signal is the transcript itself
  }
}

/** The fault turn gave exactly one turn_error, and the next turn (healthy again) completes. */
async function recovers(harness: AgentHarness<"claude_code">, sub: Sub, id: string) {
  expect(await turn(harness, sub, id, "are you back?")).toMatchObject({ type: "turn_done" });
  expect(terminals(sub).map((e) => e.type)).toEqual(["turn_error", "turn_done"]);
  const messages = await harness.messages(id);
  expect(messages.at(-1)).toMatchObject({ role: "assistant", status: "complete" });
}

async function open(model = "claude-sonnet-4-5") {
  const id = await h.conversation({ model });
  return { id, sub: await h.daemon.subscribe(id) };
}

describe("Claude Code faults", () => {
  test(
    "binary missing: agent_not_installed",
    async () => {
      const { id, sub } = await open();
      await h.removeAgent();
      expect(await turn(h, sub, id, "anyone?")).toMatchObject({ type: "turn_error", code: "agent_not_installed" });
      expect((await h.messages(id))[1]).toMatchObject({ status: "failed" });
      await h.useAgentScript(null);
      await recovers(h, sub, id);
      sub.close();
    },
    TURN,
  );

  test(
    "process crash mid-turn: agent_crashed, partial kept, the next turn resumes the session",
    async () => {
      const { id, sub } = await open();
      await h.send(id, "HOLD please");
      await sub.waitForCount((e) => e.type === "text_delta", 2);
      await transcriptHolds(h.agentHome, "HOLD please");
      process.kill(h.provider.warmProcess(id)!.pid!, "SIGKILL");
      const failed = await sub.waitFor(isTerminal);
      expect(failed.event).toMatchObject({ type: "turn_error", code: "agent_crashed" });
      expect((failed.event as { message: string }).message).toMatch(/SIGKILL/);
      const partial = (await h.messages(id))[1];
      expect(partial).toMatchObject({ status: "failed" });
      expect(textOf(partial)).toBe("partial reply ");
      await recovers(h, sub, id);
      expect(h.fake.requests.at(-1)!.transcript[0]).toEqual({ role: "user", text: "HOLD please" });
      sub.close();
    },
    TURN,
  );

  test(
    "non-zero exit: agent_exited with the CLI's stderr",
    async () => {
      const { id, sub } = await open();
      await h.useAgentScript('echo "fatal: the config is broken" >&2\nexit 3');
      const failed = await turn(h, sub, id, "start please");
      expect(failed).toMatchObject({ type: "turn_error", code: "agent_exited" });
      expect((failed as { message: string }).message).toMatch(/code 3.*the config is broken/s);
      await h.useAgentScript(null);
      await recovers(h, sub, id);
      sub.close();
    },
    TURN,
  );

  test(
    "garbage on stdout: agent_protocol_error naming the line",
    async () => {
      const { id, sub } = await open();
      await h.useAgentScript('echo "this is not json"\nexec cat >/dev/null');
      const failed = await turn(h, sub, id, "talk to me");
      expect(failed).toMatchObject({ type: "turn_error", code: "agent_protocol_error" });
      expect((failed as { message: string }).message).toContain('"this is not json"');
      await h.useAgentScript(null);
      await recovers(h, sub, id);
      sub.close();
    },
    TURN,
  );

  test(
    "a model the API rejects: agent_api_error with the API's answer; another model works",
    async () => {
      const { id, sub } = await open("claude-nope");
      const failed = await turn(h, sub, id, "hello");
      expect(failed).toMatchObject({ type: "turn_error", code: "agent_api_error" });
      expect((failed as { message: string }).message).toMatch(/claude-nope.*404/s);
      await h.daemon.api.patch(`/chat/conversations/${id}/agent-config`, { model: "claude-sonnet-4-5" });
      await recovers(h, sub, id);
      sub.close();
    },
    TURN,
  );

  test(
    "a stale session id is retried once as a fresh session, and audited",
    async () => {
      const { id, sub } = await open();
      await turn(h, sub, id, "before");
      const stale = h.storedAgentConfig(id).session_id as string;
      sub.close();
      // The CLI's transcripts are gone (config dir wiped) and so is Coffer's copy of this one
      // (agent-session-keeper.test.ts covers the copy put back): the stored id names nothing.
      await h.restart();
      await rm(join(h.agentHome, "projects"), { recursive: true, force: true });
      await rm(join(h.daemon.home, "agent-sessions"), { recursive: true, force: true });
      const again = await h.daemon.subscribe(id);
      expect(await turn(h, again, id, "after")).toMatchObject({ type: "turn_done" });
      expect(terminals(again).map((e) => e.type)).toEqual(["turn_done"]);
      const fresh = h.storedAgentConfig(id).session_id;
      expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
      expect(fresh).not.toBe(stale);
      // The fresh session starts from Coffer's history of the conversation, never silently empty.
      const [first, ...rest] = h.fake.requests.at(-1)!.transcript;
      expect(rest).toEqual([]);
      expect(first!.text).toContain("Owner: before");
      expect(first!.text.trimEnd().endsWith("after")).toBe(true);
      expect(h.auditRows("claude_session_reset").filter((r) => r.details.conversation_id === id)).toEqual([
        { actor: "agent", details: { conversation_id: id, stale_session_id: stale, reason: "session_not_found" } },
      ]);
      again.close();
    },
    TURN,
  );
});

describe("the watchdog", () => {
  test(
    "a turn with no output ends as one turn_timeout, the CLI's request is stopped, and the conversation goes on",
    async () => {
      // Long enough for a cold start on a busy machine: the stall is set up on a warm session.
      const w = await startAgentHarness("claude_code", { timings: { watchdogMs: 8000 } });
      try {
        const id = await w.conversation({ model: "claude-sonnet-4-5" });
        const sub = await w.daemon.subscribe(id);
        expect(await turn(w, sub, id, "warm up")).toMatchObject({ type: "turn_done" });
        const closedBefore = w.fake.closedByClient;
        expect(await turn(w, sub, id, "STALL now")).toMatchObject({ type: "turn_error", code: "turn_timeout" });
        expect(await turn(w, sub, id, "are you back?")).toMatchObject({ type: "turn_done" });
        expect(terminals(sub).map((e) => e.type)).toEqual(["turn_done", "turn_error", "turn_done"]);
        expect(w.fake.closedByClient).toBeGreaterThan(closedBefore);
        sub.close();
      } finally {
        await w.close();
      }
    },
    TURN,
  );
});

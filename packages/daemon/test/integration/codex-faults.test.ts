/**
 * Codex faults with the REAL binary: every fault ends the turn with exactly one
 * turn_error, and the next turn works (restarted app-server, resumed thread).
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isAlive, startAgentHarness, textOf, type AgentHarness } from "../fakes/agent-harness.js";
import { CODEX_BINARY } from "../fakes/codex-home.js";
import { FAKE_USAGE, conversationTexts } from "../fakes/fake-openai-responses.js";

const isTerminal = (e: ChatEvent) => isTerminalEvent(e);
const messages = async (h: AgentHarness<"codex">, id: string) => (await h.daemon.api.get(`/chat/conversations/${id}/messages`)).body.messages as any[];

describe("crashes and model errors on a running app-server", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 30_000);
  afterAll(() => h?.close());

  test("app-server killed mid-turn: one turn_error, partial text kept, the next turn restarts it and resumes the thread", async () => {
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "remember the first turn");
    await sub.waitFor(isTerminal);
    const thread = h.storedAgentConfig(id).session_id;

    await h.send(id, "SLOW and then crash");
    await sub.waitForCount((e) => e.type === "text_delta", 6);
    const pid = h.provider.appServerPid!;
    process.kill(pid, "SIGKILL");
    const [, crashed] = await sub.waitForCount(isTerminal, 2);
    expect(crashed!.event).toMatchObject({ type: "turn_error", code: "codex_exited" });
    expect((crashed!.event as any).message).toContain("signal SIGKILL");
    const partial = (await messages(h, id))[3];
    expect(partial.status).toBe("failed");
    expect(textOf(partial)).toMatch(/^w0 w1 /);

    await h.send(id, "after the crash");
    const [, , after] = await sub.waitForCount(isTerminal, 3);
    expect(after!.event).toMatchObject({ type: "turn_done", stop_reason: "end_turn" });
    expect(sub.events.filter((e) => isTerminal(e.event))).toHaveLength(3);
    expect(h.provider.appServerPid).not.toBe(pid);
    expect(isAlive(pid)).toBe(false);
    expect(h.storedAgentConfig(id).session_id).toBe(thread);
    const request = await h.fake.waitForRequest((r) => r.userText === "after the crash");
    expect(conversationTexts(request).slice(0, 3)).toEqual(["remember the first turn", "Echo: remember the first turn", "SLOW and then crash"]);
    sub.close();
  }, 30_000);

  test("the model failing: one turn_error from Codex, and the thread takes the next turn", async () => {
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "FAIL_HTTP now");
    const failed = await sub.waitFor(isTerminal);
    expect(failed.event).toMatchObject({ type: "turn_error", code: "codex_error" });
    await h.send(id, "try again");
    const [, next] = await sub.waitForCount(isTerminal, 2);
    expect(next!.event).toMatchObject({ type: "turn_done" });
    expect(sub.events.filter((e) => isTerminal(e.event))).toHaveLength(2);
    sub.close();
  }, 30_000);
});

describe("threads across daemon restarts", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 30_000);
  afterAll(() => h?.close());

  test("after a restart the conversation resumes its thread: the history reaches the model", async () => {
    const id = await h.conversation();
    let sub = await h.daemon.subscribe(id);
    await h.send(id, "before restart");
    await sub.waitFor(isTerminal);
    sub.close();
    const thread = h.storedAgentConfig(id).session_id;
    expect(thread).toEqual(expect.any(String));

    await h.restart();
    sub = await h.daemon.subscribe(id);
    await h.send(id, "after restart");
    // This turn's tokens only, although Codex replays the thread's totals on resume.
    expect((await sub.waitFor(isTerminal)).event).toMatchObject({
      type: "turn_done",
      prompt_tokens: FAKE_USAGE.input,
      completion_tokens: FAKE_USAGE.output,
    });
    const request = await h.fake.waitForRequest((r) => r.userText === "after restart");
    expect(conversationTexts(request)).toEqual(["before restart", "Echo: before restart", "after restart"]);
    expect(h.storedAgentConfig(id).session_id).toBe(thread);
    sub.close();
  }, 30_000);

  test("a thread Codex no longer has is replaced by a fresh one, once, with an audit entry", async () => {
    const id = await h.conversation();
    let sub = await h.daemon.subscribe(id);
    await h.send(id, "soon forgotten");
    await sub.waitFor(isTerminal);
    sub.close();
    const lost = h.storedAgentConfig(id).session_id;

    await h.restart();
    // The owner wiped Codex's history (rollouts) between runs.
    await rm(join(h.agentHome, "sessions"), { recursive: true, force: true });
    // And Coffer's copy of it (agent-session-keeper.test.ts covers the copy put back).
    await rm(join(h.daemon.home, "agent-sessions"), { recursive: true, force: true });
    sub = await h.daemon.subscribe(id);
    await h.send(id, "start over");
    expect((await sub.waitFor(isTerminal)).event.type).toBe("turn_done");
    const fresh = h.storedAgentConfig(id).session_id;
    expect(fresh).toEqual(expect.any(String));
    expect(fresh).not.toBe(lost);
    expect(h.auditRows("codex_thread_resume_lost")).toEqual([
      {
        actor: "agent",
        details: { conversation_id: id, lost_thread_id: lost, new_thread_id: fresh, reason: expect.stringContaining("no rollout found") },
      },
    ]);
    const request = await h.fake.waitForRequest((r) => r.userText.endsWith("start over"));
    // The fresh thread starts from Coffer's history of the conversation, never silently empty.
    const [seed, ...rest] = conversationTexts(request);
    expect(rest).toEqual([]);
    expect(seed).toContain("Owner: soon forgotten");
    expect(seed!.trimEnd().endsWith("start over")).toBe(true);
    sub.close();
  }, 30_000);
});

describe("what the app-server prints and whether it exists", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 30_000);
  afterAll(() => h?.close());

  test("a garbage line on its stdout is logged and skipped; its stderr reaches the daemon log", async () => {
    await h.useAgentScript(`echo 'this is not JSON-RPC'\necho 'a line on stderr' >&2\nexec '${CODEX_BINARY}' "$@"\n`);
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "through the noise");
    expect((await sub.waitFor(isTerminal)).event).toMatchObject({ type: "turn_done" });
    expect(textOf((await messages(h, id))[1])).toBe("Echo: through the noise");
    expect(h.logs).toContainEqual(expect.objectContaining({ level: "warn", ctx: expect.objectContaining({ line: "this is not JSON-RPC" }) }));
    expect(h.logs).toContainEqual(expect.objectContaining({ msg: "codex app-server stderr", ctx: expect.objectContaining({ line: "a line on stderr" }) }));
    sub.close();
  }, 30_000);

  test("an app-server that dies at start: one turn_error codex_connect_error carrying its stderr", async () => {
    await h.restart(); // a new daemon, so the next turn starts a new app-server
    await h.useAgentScript(`echo 'codex: cannot read config' >&2\nexit 3\n`);
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "will not start");
    const failed = await sub.waitFor(isTerminal);
    expect(failed.event).toMatchObject({ type: "turn_error", code: "codex_connect_error" });
    expect((failed.event as any).message).toContain("codex: cannot read config");
    expect((await messages(h, id))[1].status).toBe("failed");
    sub.close();
  }, 30_000);

  test("no codex on PATH: listed as unavailable, and a turn ends with one agent_not_installed error", async () => {
    const id = await h.conversation();
    await rm(join(h.binDir, "codex"));
    // The daemon's PATH is now only the (empty) bin dir, so no other codex is found either.
    h.env.PATH = h.binDir;
    const agents = await h.daemon.api.get("/chat/agents");
    expect(agents.body.agents).toContainEqual(expect.objectContaining({ agent_key: "codex", available: false }));
    const sub = await h.daemon.subscribe(id);
    const res = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: "anyone there?" });
    expect(res.status).toBe(202);
    const failed = await sub.waitFor(isTerminal);
    expect(failed.event).toMatchObject({ type: "turn_error", code: "agent_not_installed" });
    expect((failed.event as any).message).toContain("no `codex` on the daemon's PATH");
    expect(sub.events.filter((e) => isTerminal(e.event))).toHaveLength(1);
    sub.close();
  }, 30_000);
});

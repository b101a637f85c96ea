import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { CLI, cofferWatching, type CliRun } from "./support/run-cli.js";

let t: TestDaemon;

beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

/** Runs the built `coffer` CLI as a user would, against the test daemon. */
const coffer = (args: string[], opts: { onStdout?: (all: string) => boolean } = {}) => cofferWatching(t, args, opts.onStdout);

async function newConversation(): Promise<string> {
  const r = await coffer(["chat", "new", "--agent", "scripted", "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).id;
}

// Each case runs the real CLI several times as separate processes: allow for a busy machine.
describe("coffer CLI", { timeout: 90_000 }, () => {
  test("agents and conversations, as text and --json", async () => {
    const agents = await coffer(["agents", "--json"]);
    expect(JSON.parse(agents.stdout).agents.map((a: any) => a.agent_key)).toEqual(["claude_code", "codex", "scripted"]);
    const text = (await coffer(["agents"])).stdout;
    expect(text).toMatch(/claude_code\s+Claude Code\s+(available|unavailable)/);
    // An agent not on the daemon's PATH comes with its own install and sign-in steps; an available one without.
    const listed = JSON.parse(agents.stdout).agents as any[];
    const missing = listed.find((a) => !a.available);
    expect(missing).toBeDefined();
    const [install, signIn] = missing.setup.sign_in as any[];
    expect(text).toContain(`${missing.agent_key.padEnd(14)} ${missing.display_name.padEnd(16)} unavailable\n  install: ${missing.setup.install.command}\n  sign in: ${install.command}, or set ${signIn.env} for the daemon\n`);
    expect(text).toMatch(/scripted\s+Scripted \(tests\)\s+available\n(?!  install)/);

    const id = await newConversation();
    const ls = await coffer(["chat", "ls", "--json"]);
    expect(JSON.parse(ls.stdout).conversations.map((c: any) => c.id)).toContain(id);
    expect((await coffer(["chat", "rename", id, "CLI named"])).stdout).toContain("CLI named");
    expect((await coffer(["chat", "ls", "--search", "named"])).stdout).toContain(id);
    expect((await coffer(["chat", "archive", id])).code).toBe(0);
    expect(JSON.parse((await coffer(["chat", "ls", "--archived", "--json"])).stdout).conversations[0].id).toBe(id);
    expect((await coffer(["chat", "restore", id])).code).toBe(0);
    expect((await coffer(["chat", "model", id, "m-cli", "--json"])).stdout).toContain('"model": "m-cli"');
    expect((await coffer(["chat", "model", id])).stdout).toContain("model: m-cli");
    expect((await coffer(["chat", "model", id, "--clear"])).stdout).toContain("(agent default)");
    expect((await coffer(["chat", "rm", id, "--yes"])).stdout).toContain("deleted");
    const audit = JSON.parse((await coffer(["audit", "--action", "conversation_deleted", "--json"])).stdout);
    expect(audit.entries[0]).toMatchObject({ actor: "user", action: "conversation_deleted", details: { conversation_id: id } });
    // The action list comes from the protocol: a typo is refused before any request.
    const typo = await coffer(["audit", "--action", "conversation_delted"]);
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toMatch(/Allowed choices are .*conversation_deleted.*memory_added/);
  });

  test("send streams the reply and returns when the turn ends; show prints the thread with tokens", async () => {
    const id = await newConversation();
    const sent = await coffer(["chat", "send", id, script({ text: "streamed " }, { tool: { id: "t1", name: "Bash", input: { command: "ls" }, output: "x" } }, { text: "reply" }, { done: { prompt_tokens: 7, completion_tokens: 3 } })]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain("streamed");
    expect(sent.stdout).toContain("⚙ Bash");
    expect(sent.stdout).toContain("✓ Bash");
    expect(sent.stdout).toContain("reply");
    const show = await coffer(["chat", "show", id, "--json"]);
    const body = JSON.parse(show.stdout);
    expect(body.messages[1]).toMatchObject({ role: "assistant", prompt_tokens: 7, completion_tokens: 3 });
    expect((await coffer(["chat", "show", id])).stdout).toContain("tokens: 7 in / 3 out");

    const json = await coffer(["chat", "send", id, "again", "--json"]);
    const types = json.stdout.trim().split("\n").map((l) => JSON.parse(l).type);
    expect(types).toEqual(["turn_start", "text_delta", "text_delta", "turn_done"]);
  });

  test("a failed turn exits with its own status and says why", async () => {
    const id = await newConversation();
    const r = await coffer(["chat", "send", id, script({ error: { code: "agent_api_error", message: "unknown model x" } })]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain("agent_api_error: unknown model x");
  });

  test("send prints the agent's retries as they happen, then the give-up", async () => {
    const id = await newConversation();
    const retry = (attempt: number) => ({ retry: { attempt, max: 10, message: "connection refused" } });
    const r = await coffer(["chat", "send", id, script(retry(1), retry(2), { error: { code: "model_unreachable", message: "the model API could not be reached after 2 attempts" } })]);
    // The agent's cap is 10, but the daemon gives up after COFFER_TURN_RETRY_GIVE_UP (6) in a row.
    expect(r.stdout).toContain("↻ Retrying — attempt 1 of 6: connection refused");
    expect(r.stdout).toContain("↻ Retrying — attempt 2 of 6: connection refused");
    expect(r.code).toBe(8);
    expect(r.stderr).toContain("model_unreachable: the model API could not be reached after 2 attempts");
  });

  test("a plan limit: send says why it failed, and the queue says until when it waits", async () => {
    const id = await newConversation();
    const limit = { limits: { status: "rejected" as const, window: "five_hour", used: 100, resetsInMs: 3_600_000 } };
    const r = await coffer(["chat", "send", id, script(limit, { error: { code: "plan_limit", message: "You've hit your 5-hour limit" } })]);
    expect(r.stderr).toContain("plan_limit: You've hit your 5-hour limit");
    await coffer(["chat", "send", id, "later", "--no-wait"]);
    const queue = await coffer(["chat", "queue", id]);
    expect(queue.stdout).toMatch(/^1 pending \(Paused until .+ — plan limit: `coffer chat queue <id> --resume`\)/);
    const resumed = await coffer(["chat", "queue", id, "--resume"]);
    expect(resumed.stdout).toContain("queue empty");
  });

  test("errors print the envelope's message and exit with a code-specific status", async () => {
    const missing = await coffer(["chat", "show", "nope"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("conversation not found: nope [CONVERSATION_NOT_FOUND]");
    const unknown = await coffer(["chat", "new", "--agent", "nobody"]);
    expect(unknown.code).toBe(4);
    const offline = await new Promise<CliRun>((resolve) => {
      const child = spawn(process.execPath, [CLI, "--url", "http://127.0.0.1:1", "--token", "x", "agents"]);
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      child.on("close", (code) => resolve({ code: code ?? -1, stdout: "", stderr }));
    });
    expect(offline.code).toBe(5);
    expect(offline.stderr).toContain("cannot reach the daemon");
  });

  test("watch follows a turn another surface started; stop interrupts; queue manages pending", async () => {
    const id = await newConversation();
    let started = false;
    const watching = coffer(["chat", "watch", id, "--json"], {
      onStdout: (all) => {
        if (!started && all.includes('"queue_changed"')) {
          started = true;
          void t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "live " }, { hang: true }) });
        }
        return all.includes('"stop_reason":"interrupted"');
      },
    });
    // Wait for the turn to be running, then use the CLI to queue, reorder, drop and stop.
    const sub = await t.subscribe(id);
    await sub.waitFor((e) => e.type === "text_delta");
    sub.close();
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "q-a" });
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "q-b" });
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "q-c" });
    const moved = await coffer(["chat", "queue", id, "--move", "3", "1", "--json"]);
    expect(JSON.parse(moved.stdout).pending.map((p: any) => p.text)).toEqual(["q-c", "q-a", "q-b"]);
    const dropped = await coffer(["chat", "queue", id, "--drop", "2"]);
    expect(dropped.stdout).toMatch(/2 pending[\s\S]*1\. q-c[\s\S]*2\. q-b/);
    expect((await coffer(["chat", "queue", id, "--drop", "9"])).code).toBe(4);
    expect((await coffer(["chat", "stop", id])).stdout).toContain("stopped");
    const watched = await watching;
    expect(watched.stdout).toContain('"text":"live "');
    expect((await coffer(["chat", "queue", id])).stdout).toContain("paused");
    const resumed = await coffer(["chat", "queue", id, "--resume", "--json"]);
    expect(JSON.parse(resumed.stdout).paused).toBe(false);
  });
});

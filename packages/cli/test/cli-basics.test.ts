import type { ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { TurnPrinter } from "../src/turn-printer.js";
import { cofferWatching, type CliRun } from "./support/run-cli.js";

const SPEC = "015-page-basics";
let t: TestDaemon;

beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

/** The built `coffer` CLI, run as a user would; `until` ends a long-running one (watch) with Ctrl-C. */
function coffer(args: string[], until?: (stdout: string) => boolean, started?: (stdout: string) => void): Promise<CliRun> {
  return cofferWatching(t, args, (all) => {
    started?.(all);
    return until?.(all);
  });
}

/** Two ids sharing their first character: 17 conversations make one certain (16 hex digits). */
async function twoWithSharedStart(): Promise<[string, string]> {
  const byFirst = new Map<string, string>();
  for (let i = 0; i < 17; i++) {
    const id = await t.conversation();
    const other = byFirst.get(id[0]!);
    if (other) return [other, id];
    byFirst.set(id[0]!, id);
  }
  throw new Error("unreachable: 17 ids over 16 first characters");
}

describe("coffer CLI basics (issue 15)", { timeout: 90_000 }, () => {
  acceptance(SPEC, "the CLI takes a unique id prefix wherever it takes a conversation id; an ambiguous one lists the candidates", async () => {
    const [a, b] = await twoWithSharedStart();
    const shared = [...a].findIndex((ch, i) => ch !== b[i]);
    const uniqueA = a.slice(0, shared + 1);

    const show = await coffer(["chat", "show", uniqueA]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(a);
    expect((await coffer(["chat", "rename", uniqueA, "Prefix named"])).code).toBe(0);
    expect((await t.api.get(`/chat/conversations/${a}`)).body.title).toBe("Prefix named");
    // Archived ones resolve too (the id is still the owner's handle on it).
    expect((await coffer(["chat", "archive", uniqueA])).code).toBe(0);
    expect((await coffer(["chat", "restore", uniqueA])).code).toBe(0);
    const sent = await coffer(["chat", "send", uniqueA, "hello from a prefix"]);
    expect(sent.code).toBe(0);

    const ambiguous = await coffer(["chat", "show", a.slice(0, shared)]);
    expect(ambiguous.code).toBe(4);
    expect(ambiguous.stdout).toBe("");
    expect(ambiguous.stderr).toContain("[CONVERSATION_ID_AMBIGUOUS]");
    expect(ambiguous.stderr).toContain(a);
    expect(ambiguous.stderr).toContain(b);
    expect(ambiguous.stderr).toContain("Prefix named");

    const none = await coffer(["chat", "show", "fffffffffffffffffffffffffffff0"]);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain("[CONVERSATION_NOT_FOUND]");

    // The daemon resolves (one indexed read); the route is the same for every client.
    const res = await t.api.get(`/chat/conversation-ids/${a.slice(0, shared)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("CONVERSATION_ID_AMBIGUOUS");
    expect(res.body.error.details.candidates.map((c: { id: string }) => c.id).sort()).toEqual([a, b].sort());
    expect((await t.api.get(`/chat/conversation-ids/${uniqueA}`)).body).toMatchObject({ id: a, title: "Prefix named", archived: false });
  });

  acceptance(SPEC, "chat ls has column headers, and a search shows each hit's snippet with the matched words marked", async () => {
    const id = await t.conversation();
    await t.api.patch(`/chat/conversations/${id}`, { title: "Headers and snippets" });
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "the pelican migration starts at dawn" });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();

    const ls = await coffer(["chat", "ls"]);
    const [header] = ls.stdout.split("\n");
    expect(header).toMatch(/^ID\s+AGENT\s+TITLE\s+UPDATED/);
    // The header's columns line up with the rows'.
    const row = ls.stdout.split("\n").find((l) => l.startsWith(id))!;
    expect(row.indexOf("scripted")).toBe(header!.indexOf("AGENT"));
    expect(row.indexOf("Headers and snippets")).toBe(header!.indexOf("TITLE"));

    const found = await coffer(["chat", "ls", "--search", "pelican"]);
    const lines = found.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID\s+AGENT/);
    const at = lines.findIndex((l) => l.startsWith(id));
    expect(lines[at + 1]).toContain("«pelican»");
    expect(lines[at + 1]).toContain("migration starts at dawn");
    expect((await coffer(["chat", "ls", "--search", "nosuchwordanywhere"])).stdout).toBe("no matches\n");
  });

  acceptance(SPEC, "chat watch prints queue notices between lines, never inside a line the agent is streaming", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    let watching!: () => void;
    const attached = new Promise<void>((r) => (watching = r));
    const watch = coffer(
      ["chat", "watch", id],
      (out) => out.includes("── done"),
      (out) => out.includes("alpha beta") && watching(),
    );
    // The watcher is attached once it printed anything: start the turn, then wait for its first line.
    await t.api.post(`/chat/conversations/${id}/messages`, {
      text: script({ text: "alpha beta " }, { gate: "mid-line" }, { text: "gamma\nnext" }, { text: " line\n" }),
    });
    await attached;
    // Another surface queues a message while the line is half written.
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "queued meanwhile" });
    await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 1);
    t.scripted.gates.open("mid-line");
    const out = (await watch).stdout;
    sub.close();
    expect(out).toContain("alpha beta gamma\n── queue: 1 pending\nnext line\n");
  });

  test("the printer holds a notice until the streamed line ends, or the turn does", () => {
    const chunks: string[] = [];
    const printer = new TurnPrinter({ write: (s: string) => chunks.push(s) } as unknown as NodeJS.WritableStream, false);
    const queue = { type: "queue_changed", pending: [{ id: "p", text: "x" }], paused: false } as unknown as ChatEvent;
    printer.print({ type: "text_delta", text: "half a " } as ChatEvent);
    printer.print(queue);
    printer.print({ type: "text_delta", text: "line" } as ChatEvent);
    printer.print({ type: "turn_done", stop_reason: "end_turn", model: null, prompt_tokens: null, completion_tokens: null } as unknown as ChatEvent);
    expect(chunks.join("")).toBe("half a line\n── queue: 1 pending\n── done\n");
    // Between lines a notice prints at once.
    chunks.length = 0;
    printer.print(queue);
    expect(chunks.join("")).toBe("── queue: 1 pending\n");
  });

  test("a steer while a tool runs prints after that tool's result line, as the thread stores it", () => {
    const chunks: string[] = [];
    const printer = new TurnPrinter({ write: (s: string) => chunks.push(s) } as unknown as NodeJS.WritableStream, false);
    const user = { id: "u", conversation_id: "c", seq: 2, role: "user", content: [{ type: "text", text: "also" }], status: "complete", steered: true };
    // `chat send --steer` only observes the turn's events before its own steer.
    printer.observe({ type: "tool_call", tool_use_id: "t", tool_name: "Bash", tool_input: { command: "sleep 6" } } as ChatEvent);
    printer.print({ type: "steered", turn_id: "x", user_message: user, previous_assistant_message_id: "a", previous_state: "running_tool", assistant_message_id: "b" } as unknown as ChatEvent);
    expect(chunks.join("")).toBe("");
    printer.print({ type: "tool_result", tool_use_id: "t", tool_name: "Bash", output: "slept", error: null } as ChatEvent);
    printer.print({ type: "text_delta", text: "ok" } as ChatEvent);
    expect(chunks.join("")).toBe("  ✓ Bash\n── you (steered into the running turn)\nalso\n── assistant\nok");
  });

  acceptance(SPEC, "chat show marks a stopped reply and a failed one, with why it failed", async () => {
    const stopped = await t.conversation();
    const sub = await t.subscribe(stopped);
    await t.api.post(`/chat/conversations/${stopped}/messages`, { text: script({ text: "a partial answer" }, { hang: true }) });
    await sub.waitFor((e) => e.type === "text_delta");
    await t.api.post(`/chat/conversations/${stopped}/interrupt`, {});
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    const shownStop = (await coffer(["chat", "show", stopped])).stdout;
    expect(shownStop).toMatch(/── assistant.* · ⏹ stopped\na partial answer\n {2}⏹ stopped \(the reply above is partial\)/);

    const failed = await t.conversation();
    const sub2 = await t.subscribe(failed);
    await t.api.post(`/chat/conversations/${failed}/messages`, {
      text: script({ text: "started to" }, { error: { code: "agent_api_error", message: "model overloaded" } }),
    });
    await sub2.waitFor((e) => e.type === "turn_error");
    sub2.close();
    const shownFail = (await coffer(["chat", "show", failed])).stdout;
    expect(shownFail).toMatch(/── assistant.* · ✗ failed\nstarted to\n {2}✗ failed: agent_api_error: model overloaded/);
    // A reply that simply finished carries no mark.
    expect((await coffer(["chat", "show", failed])).stdout.match(/── you · #0\n/)).not.toBeNull();
  });
});

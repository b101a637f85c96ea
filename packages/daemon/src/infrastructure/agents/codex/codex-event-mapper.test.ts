import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { CodexTurnMapper } from "./codex-event-mapper.js";

/**
 * Lines recorded from the real `codex app-server` 0.171.0 against our fake Responses
 * server: a text turn ("hi"), a tool turn (`echo tool-ran; exit 3`), a failing model
 * (HTTP 500) and an interrupted slow reply, all on one thread. "#### TURN x" separates them.
 */
const recording = readFileSync(new URL("./testdata/app-server-0.171.jsonl", import.meta.url), "utf8");

function turnLines(name: string): { method: string; params: any }[] {
  const section = recording.split(/^#### TURN /m).find((s) => s.startsWith(`${name}\n`));
  if (!section) throw new Error(`no recorded turn ${name}`);
  return section
    .split("\n")
    .slice(1)
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .filter((m) => typeof m.method === "string");
}

function ids(name: string): { threadId: string; turnId: string } {
  const started = turnLines(name).find((m) => m.method === "turn/started")!;
  return { threadId: started.params.threadId, turnId: started.params.turn.id };
}

function play(name: string, previousTotalTokens?: number) {
  const mapper = new CodexTurnMapper({ ...ids(name), model: "gpt-5.5", previousTotalTokens });
  const events = turnLines(name).flatMap((m) => mapper.map(m.method, m.params));
  return { mapper, events };
}

describe("CodexTurnMapper on recorded app-server lines", () => {
  test("a text turn: deltas in order, then turn_done with the turn's tokens", () => {
    const { events } = play("hi", 0);
    expect(events).toEqual([
      { type: "text_delta", text: "Echo: " },
      { type: "text_delta", text: "h" },
      { type: "text_delta", text: "i" },
      { type: "context_usage", used_tokens: 30, window_tokens: 258400 },
      { type: "turn_done", prompt_tokens: 21, completion_tokens: 9, stop_reason: "end_turn", model: "gpt-5.5" },
    ]);
  });

  test("a failed command: tool_call + tool_result with the exit code, and both model calls counted", () => {
    const { events, mapper } = play("USE_TOOL echo tool-ran; exit 3", 30);
    const [call, result, ...rest] = events;
    expect(call).toEqual({
      type: "tool_call",
      tool_use_id: "call_2_0",
      tool_name: "shell",
      tool_input: { command: "/bin/bash -lc 'echo tool-ran; exit 3'", cwd: "/tmp" },
    });
    expect(result).toEqual({
      type: "tool_result",
      tool_use_id: "call_2_0",
      tool_name: "shell",
      output: { output: "tool-ran\n", exit_code: 3 },
      error: "command exited with code 3: tool-ran",
    });
    // One context_usage per model call: the gauge shows the last call's, not the turn's sum.
    expect(rest.filter((e) => e.type !== "context_usage")).toEqual([
      { type: "text_delta", text: "Tool said: tool-ran" },
      { type: "turn_done", prompt_tokens: 42, completion_tokens: 18, stop_reason: "end_turn", model: "gpt-5.5" },
    ]);
    expect(events.filter((e) => e.type === "context_usage")).toEqual([
      { type: "context_usage", used_tokens: 30, window_tokens: 258400 },
      { type: "context_usage", used_tokens: 30, window_tokens: 258400 },
    ]);
    expect(mapper.totalTokens).toBe(90);
  });

  test("a model error: exactly one turn_error, from the error notification", () => {
    const { events } = play("FAIL_HTTP", 90);
    expect(events).toEqual([
      { type: "turn_error", code: "codex_error", message: "We’re currently experiencing high demand, which may cause temporary errors." },
    ]);
  });

  test("an interrupt: partial text kept, stale token figures not counted, stop_reason interrupted", () => {
    const { events } = play("SLOW", 90);
    expect(events).toEqual([
      { type: "text_delta", text: "w0 " },
      { type: "turn_done", prompt_tokens: null, completion_tokens: null, stop_reason: "interrupted", model: "gpt-5.5" },
    ]);
  });

  test("notifications of another thread or another turn never reach this turn", () => {
    const { threadId, turnId } = ids("hi");
    const mapper = new CodexTurnMapper({ threadId: "other-thread", turnId, model: null });
    expect(turnLines("hi").flatMap((m) => mapper.map(m.method, m.params))).toEqual([]);
    const stale = new CodexTurnMapper({ threadId, turnId: "an-older-turn", model: null });
    expect(turnLines("hi").flatMap((m) => stale.map(m.method, m.params))).toEqual([]);
  });
});

describe("CodexTurnMapper on shapes from the generated protocol types", () => {
  const threadId = "t1";
  const turnId = "u1";
  const at = { threadId, turnId };
  const mapper = () => new CodexTurnMapper({ threadId, turnId, model: "m" });

  test("an interrupted turn closes tool items Codex never completed", () => {
    const m = mapper();
    const started = m.map("item/started", { ...at, item: { type: "commandExecution", id: "c1", command: "sleep 9", cwd: "/w", status: "inProgress" } });
    expect(started.map((e) => e.type)).toEqual(["tool_call"]);
    const events = m.map("turn/completed", { threadId, turn: { id: turnId, status: "interrupted", error: null } });
    expect(events.map((e) => e.type)).toEqual(["tool_result", "turn_done"]);
    expect(events[0]).toMatchObject({ tool_use_id: "c1", error: "interrupted before it finished" });
  });

  test("a tool item's call is shown when it starts and its result when it completes, once each", () => {
    const m = mapper();
    const item = { type: "commandExecution", id: "c2", command: "sleep 6 && echo slept", cwd: "/w", status: "inProgress" };
    expect(m.map("item/started", { ...at, item })).toEqual([
      { type: "tool_call", tool_use_id: "c2", tool_name: "shell", tool_input: { command: "sleep 6 && echo slept", cwd: "/w" } },
    ]);
    expect(m.map("item/completed", { ...at, item: { ...item, status: "completed", exitCode: 0, aggregatedOutput: "slept\n" } })).toEqual([
      { type: "tool_result", tool_use_id: "c2", tool_name: "shell", output: { output: "slept\n", exit_code: 0 }, error: null },
    ]);
  });

  test("fileChange, mcpToolCall and webSearch become tool pairs", () => {
    const m = mapper();
    const done = (item: Record<string, unknown>) => m.map("item/completed", { ...at, item });
    expect(done({ type: "fileChange", id: "f1", changes: [{ path: "a.txt", kind: { type: "add" }, diff: "+x" }], status: "completed" })).toEqual([
      { type: "tool_call", tool_use_id: "f1", tool_name: "file_change", tool_input: { changes: [{ path: "a.txt", kind: { type: "add" }, diff: "+x" }] } },
      { type: "tool_result", tool_use_id: "f1", tool_name: "file_change", output: { status: "completed" }, error: null },
    ]);
    const mcp = done({
      type: "mcpToolCall",
      id: "m1",
      server: "coffer",
      tool: "recall",
      arguments: { query: "probe" },
      status: "failed",
      result: null,
      error: { message: "user rejected MCP tool call" },
    });
    expect(mcp[0]).toMatchObject({ tool_name: "coffer__recall", tool_input: { query: "probe" } });
    expect(mcp[1]).toMatchObject({ error: "user rejected MCP tool call" });
    const web = done({ type: "webSearch", id: "w1", query: "coffer", action: null, results: null });
    expect(web[0]).toMatchObject({ tool_name: "web_search", tool_input: { query: "coffer" } });
  });

  test("a retried error is not terminal (a retrying event); a failed turn is; nothing follows a terminal", () => {
    const m = mapper();
    expect(m.map("error", { ...at, error: { message: "reconnecting" }, willRetry: true })).toEqual([
      { type: "retrying", attempt: 1, max_attempts: null, message: "reconnecting", delay_ms: null },
    ]);
    expect(m.map("turn/completed", { threadId, turn: { id: turnId, status: "failed", error: { message: "context window exceeded" } } })).toEqual([
      { type: "turn_error", code: "codex_turn_failed", message: "context window exceeded" },
    ]);
    expect(m.map("item/agentMessage/delta", { ...at, itemId: "x", delta: "late" })).toEqual([]);
    expect(m.fail("codex_exited", "gone")).toEqual([]);
  });

  test("model/rerouted changes the model the turn reports", () => {
    const m = mapper();
    m.map("model/rerouted", { ...at, fromModel: "m", toModel: "m-mini", reason: "highRiskCyberActivity" });
    expect(m.map("turn/completed", { threadId, turn: { id: turnId, status: "completed" } })[0]).toMatchObject({ model: "m-mini" });
  });
});

describe("CodexTurnMapper on recorded retry notices (testdata/retries-0.171.jsonl)", () => {
  // Three turns against the fake: HTTP 500 with stream_max_retries = 3, a 429 usage limit,
  // and a refused port (Codex retries that forever, "waiting for network").
  const lines = readFileSync(new URL("./testdata/retries-0.171.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { method: string; params: any });
  const turns = lines.filter((m) => m.method === "turn/started").map((m) => ({ threadId: m.params.threadId, turnId: m.params.turn.id }));

  /** From the turn's own turn/started on (account-wide rate-limit updates reach any running turn). */
  function playTurn(index: number) {
    const mapper = new CodexTurnMapper({ ...turns[index]!, model: "gpt-5.5" });
    const from = lines.findIndex((m) => m.method === "turn/started" && m.params.turn.id === turns[index]!.turnId);
    return lines.slice(from).flatMap((m) => mapper.map(m.method, m.params));
  }

  test("a 5xx storm: each 'Reconnecting... n/3' is a retrying event with Codex's own count, then the terminal error", () => {
    const events = playTurn(0);
    const detail = "We’re currently experiencing high demand, which may cause temporary errors.";
    expect(events).toEqual([
      { type: "retrying", attempt: 1, max_attempts: 3, message: detail, delay_ms: null },
      { type: "retrying", attempt: 2, max_attempts: 3, message: detail, delay_ms: null },
      { type: "retrying", attempt: 3, max_attempts: 3, message: detail, delay_ms: null },
      { type: "turn_error", code: "codex_error", message: detail },
    ]);
  });

  test("a refused connection states no count: the attempts are counted here and have no cap", () => {
    const events = playTurn(2);
    expect(events).toEqual([
      { type: "retrying", attempt: 1, max_attempts: null, message: "Connection failed: error sending request", delay_ms: null },
      { type: "retrying", attempt: 2, max_attempts: null, message: "Connection failed: error sending request", delay_ms: null },
    ]);
  });
});

describe("CodexTurnMapper on a recorded plan limit (testdata/retries-0.171.jsonl, the 429 turn)", () => {
  const lines = readFileSync(new URL("./testdata/retries-0.171.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { method: string; params: any });

  test("account/rateLimits/updated becomes plan_limits with both windows; usageLimitExceeded ends the turn as plan_limit", () => {
    const started = lines.filter((m) => m.method === "turn/started")[1]!;
    const mapper = new CodexTurnMapper({ threadId: started.params.threadId, turnId: started.params.turn.id, model: "gpt-5.5" });
    const from = lines.indexOf(started);
    const events = lines.slice(from).flatMap((m) => mapper.map(m.method, m.params));
    const update = lines.find((m) => m.method === "account/rateLimits/updated")!.params.rateLimits;
    expect(events).toEqual([
      {
        type: "plan_limits",
        status: "rejected",
        windows: [
          { window: "primary", used_percent: 100, resets_at: new Date(update.primary.resetsAt * 1000).toISOString(), window_minutes: 300 },
          { window: "secondary", used_percent: 40, resets_at: new Date(update.secondary.resetsAt * 1000).toISOString(), window_minutes: 10080 },
        ],
      },
      { type: "turn_error", code: "plan_limit", message: "You’ve hit your usage limit. Try again later." },
    ]);
  });

  test("a sparse update naming no window reports nothing (it must not clear what is known)", () => {
    const m = new CodexTurnMapper({ threadId: "t", turnId: "u", model: null });
    expect(m.map("account/rateLimits/updated", { rateLimits: { limitId: "codex", primary: null, secondary: null } })).toEqual([]);
  });
});

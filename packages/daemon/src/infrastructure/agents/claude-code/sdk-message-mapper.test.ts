import { readFileSync } from "node:fs";
import type { AgentEvent } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { ClaudeTurnMapper, type MappedStep } from "./sdk-message-mapper.js";

/**
 * The fixtures are real SDK messages (Agent SDK 0.3.333, bundled CLI 2.1.333) recorded
 * against the fake Anthropic server: one JSON object per line, as `query()` yielded them.
 */
function recorded(name: string): Record<string, unknown>[] {
  const text = readFileSync(new URL(`./recorded/${name}.jsonl`, import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Feed one turn's messages (up to and including its first result). */
function runTurn(lines: Record<string, unknown>[], model: string | null = "claude-sonnet-4-5") {
  const mapper = new ClaudeTurnMapper(model);
  const events: AgentEvent[] = [];
  const steps: MappedStep[] = [];
  for (const line of lines) {
    const step = mapper.map(line);
    steps.push(step);
    events.push(...step.events);
    if (step.finished) break;
  }
  return { events, steps, mapper, rest: lines.slice(steps.length) };
}

describe("ClaudeTurnMapper on recorded CLI output", () => {
  test("a text turn streams deltas once (the final assistant message is not repeated) and ends with per-run usage", () => {
    const { events, steps } = runTurn(recorded("text"));
    expect(events).toEqual([
      { type: "text_delta", text: "Fake " },
      { type: "text_delta", text: "reply " },
      { type: "text_delta", text: "to: " },
      { type: "text_delta", text: "hello there" },
      // The context after the turn: the last call's prompt (21) and output (9), in the model's window.
      { type: "context_usage", used_tokens: 30, window_tokens: 200000 },
      { type: "turn_done", prompt_tokens: 21, completion_tokens: 9, stop_reason: "end_turn", model: "claude-sonnet-4-5" },
    ]);
    expect(steps.find((s) => s.sessionId)?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the second turn of a session reports its own usage, not the cumulative modelUsage", () => {
    const lines = recorded("text");
    const first = runTurn(lines);
    const second = runTurn(first.rest);
    const result = first.rest.filter((l) => l.type === "result")[0] as { modelUsage: Record<string, { inputTokens: number }> };
    expect(Object.values(result.modelUsage)[0]!.inputTokens).toBe(42); // cumulative: both turns
    expect(second.events.at(-1)).toEqual({
      type: "turn_done",
      prompt_tokens: 21,
      completion_tokens: 9,
      stop_reason: "end_turn",
      model: "claude-sonnet-4-5",
    });
  });

  test("a tool turn maps tool_use to tool_call and the tool_result back with its name", () => {
    const { events } = runTurn(recorded("tool"));
    expect(events.map((e) => e.type)).toEqual(["tool_call", "tool_result", "text_delta", "text_delta", "context_usage", "turn_done"]);
    // Two model calls of 21 in / 9 out: the context is the last call's, not the turn's sum (42 + 18).
    expect(events.at(-2)).toEqual({ type: "context_usage", used_tokens: 30, window_tokens: 200000 });
    const call = events[0] as Extract<AgentEvent, { type: "tool_call" }>;
    expect(call.tool_name).toBe("Bash");
    expect(call.tool_input).toMatchObject({ command: "echo tool-ran && pwd" });
    const result = events[1] as Extract<AgentEvent, { type: "tool_result" }>;
    expect(result).toMatchObject({ tool_use_id: call.tool_use_id, tool_name: "Bash", error: null });
    expect(String(result.output)).toMatch(/^tool-ran\n\/tmp\//);
    expect(events.at(-1)).toMatchObject({ type: "turn_done", prompt_tokens: 42, completion_tokens: 18 });
  });

  test("an interrupted turn keeps the streamed partial once and ends on the error result", () => {
    const { events, steps } = runTurn(recorded("interrupt"));
    expect(events.filter((e) => e.type === "text_delta")).toEqual([
      { type: "text_delta", text: "partial " },
      { type: "text_delta", text: "reply " },
    ]);
    expect(steps.at(-1)?.finished).toBe(true);
    expect(events.at(-1)?.type).toBe("turn_error");
  });

  test("a resume of an unknown session is reported as stale, with no event of its own", () => {
    const { events, steps } = runTurn(recorded("stale"));
    expect(events).toEqual([]);
    expect(steps.at(-1)).toMatchObject({ finished: true, staleSession: true });
  });

  test("a model the API rejects ends as agent_api_error carrying the CLI's words and the API status", () => {
    const { events } = runTurn(recorded("reject"), "claude-nope");
    expect(events).toEqual([
      {
        type: "turn_error",
        code: "agent_api_error",
        message: expect.stringMatching(/issue with the selected model \(claude-nope\).*\(API 404 not_found_error\)$/s),
      },
    ]);
  });

  test("without partial messages the complete assistant text is emitted once", () => {
    const lines = recorded("text").filter((l) => l.type !== "stream_event");
    const { events } = runTurn(lines);
    expect(events.filter((e) => e.type === "text_delta")).toEqual([{ type: "text_delta", text: "Fake reply to: hello there" }]);
  });

  test("the model reported by the API wins over the configured one", () => {
    const lines = recorded("text");
    const { events } = runTurn(lines, null);
    expect(events.at(-1)).toMatchObject({ model: "claude-sonnet-4-5" });
  });
});

describe("ClaudeTurnMapper on the CLI's retry notices", () => {
  // Recorded from the bundled CLI 2.1.333: a refused port, a 529 storm, a 429 storm.
  test("system/api_retry becomes a retrying event with the attempt, the CLI's cap, a short reason and the delay", () => {
    const mapper = new ClaudeTurnMapper(null);
    const events = recorded("api-retry").flatMap((m) => mapper.map(m).events);
    expect(events).toEqual([
      { type: "retrying", attempt: 1, max_attempts: 10, message: "connection failed (no response from the model API)", delay_ms: 544 },
      { type: "retrying", attempt: 1, max_attempts: 10, message: "API 529 overloaded", delay_ms: 1211 },
      { type: "retrying", attempt: 3, max_attempts: 10, message: "API 429 rate limit", delay_ms: 2166 },
    ]);
  });
});

describe("ClaudeTurnMapper on a plan limit", () => {
  // Recorded from CLI 2.1.333 signed in with an OAuth token against a fake answering 429 with
  // the unified rate-limit headers (five-hour window full).
  test("rate_limit_event becomes plan_limits; the 429 result after a rejection is plan_limit with the CLI's words", () => {
    const lines = recorded("plan-limit");
    const resetsAt = (lines[0]!.rate_limit_info as { resetsAt: number }).resetsAt;
    const { events } = runTurn(lines);
    expect(events).toEqual([
      {
        type: "plan_limits",
        status: "rejected",
        windows: [{ window: "five_hour", used_percent: 100, resets_at: new Date(resetsAt * 1000).toISOString(), window_minutes: 300 }],
      },
      { type: "turn_error", code: "plan_limit", message: "You've hit your 5-hour limit · resets 9:13pm (UTC)" },
    ]);
  });

  test("a 429 without a rejected plan limit stays an API error", () => {
    const mapper = new ClaudeTurnMapper(null);
    const [event] = mapper.map({ type: "result", subtype: "success", is_error: true, result: "rate limited", api_error_status: 429, api_error_type: "rate_limit_error" }).events;
    expect(event).toMatchObject({ type: "turn_error", code: "agent_api_error" });
  });
});

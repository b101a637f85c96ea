/**
 * The one place Codex app-server notifications become Coffer's AgentEvents (each agent's SDK
 * stays in its adapter: docs/architecture.md, "The live path of a delta"). Pure: one mapper per turn, fed `(method, params)` pairs, unit-tested with
 * lines recorded from the real binary (testdata/app-server-0.171.jsonl).
 *
 * Only this turn's notifications count: anything for another thread (a concurrent
 * conversation on the same app-server) or another turn is ignored.
 */
import type { AgentEvent, PlanLimitsEvent, RetryingEvent, ToolCallEvent, ToolResultEvent, TurnDoneEvent, TurnErrorCode, TurnErrorEvent } from "@coffer/protocol";

export type TerminalEvent = TurnDoneEvent | TurnErrorEvent;

export interface TurnMapperOptions {
  readonly threadId: string;
  readonly turnId: string;
  /** The model this turn was started with; `model/rerouted` may change it. */
  readonly model: string | null;
  /** The thread's cumulative token total before this turn, when known. */
  readonly previousTotalTokens?: number;
}

type Item = { type: string; id: string; [key: string]: unknown };

interface Usage {
  totalTokens: number;
  inputTokens: number;
  outputTokens: number;
}

export class CodexTurnMapper {
  private model: string | null;
  private terminal: TerminalEvent | null = null;
  private promptTokens: number | null = null;
  private completionTokens: number | null = null;
  private lastTotal: number | undefined;
  private retries = 0;
  /** Tool items started (their call already emitted) but not completed: Codex sends no completion for them on interrupt. */
  private readonly open = new Map<string, Item>();

  constructor(private readonly options: TurnMapperOptions) {
    this.model = options.model;
    this.lastTotal = options.previousTotalTokens;
  }

  /** The turn's terminal event, once it has been mapped. */
  get done(): TerminalEvent | null {
    return this.terminal;
  }

  /** The thread's cumulative token total as last reported, for the next turn's mapper. */
  get totalTokens(): number | undefined {
    return this.lastTotal;
  }

  map(method: string, params: unknown): AgentEvent[] {
    // Account-wide (no thread): every running turn reports it; the book keeps the latest.
    if (method === "account/rateLimits/updated") return this.terminal ? [] : rateLimits(params);
    if (this.terminal || !this.concernsThisTurn(params)) return [];
    const p = params as Record<string, any>;
    switch (method) {
      case "item/agentMessage/delta":
        return typeof p.delta === "string" && p.delta.length > 0 ? [{ type: "text_delta", text: p.delta }] : [];
      case "item/started":
        // The call is shown as it starts (a running card, as Claude's are), so a steer while it
        // runs lands after it (docs/decisions.md, "Steering keeps one tool card").
        if (!isToolItem(p.item)) return [];
        this.open.set(p.item.id, p.item);
        return [toolPair(p.item)[0]];
      case "item/completed": {
        if (!isToolItem(p.item)) return [];
        const started = this.open.delete(p.item.id);
        const [call, result] = toolPair(p.item);
        return started ? [result] : [call, result];
      }
      case "thread/tokenUsage/updated":
        return this.countTokens(p.tokenUsage);
      case "model/rerouted":
        if (typeof p.toModel === "string") this.model = p.toModel;
        return [];
      case "error":
        if (p.willRetry) return [this.retrying(p.error)];
        if (p.error?.codexErrorInfo === "usageLimitExceeded") {
          return this.end({ type: "turn_error", code: "plan_limit", message: errorText(p.error, "the plan's usage limit is reached") });
        }
        return this.end({ type: "turn_error", code: "codex_error", message: errorText(p.error, "Codex reported an error") });
      case "turn/completed":
        return this.completed(p.turn ?? {});
      default:
        return [];
    }
  }

  /**
   * `error` with `willRetry`: "Reconnecting... 2/5" on a 5xx or a dropped stream, but
   * "Reconnecting... waiting for network" (no count, no end) when the connection is refused,
   * so the attempt is our own count unless Codex states a higher one.
   */
  private retrying(error: unknown): RetryingEvent {
    this.retries += 1;
    const e = (error ?? {}) as { message?: unknown; additionalDetails?: unknown };
    const stated = typeof e.message === "string" ? /(\d+)\/(\d+)/.exec(e.message) : null;
    const detail = typeof e.additionalDetails === "string" && e.additionalDetails ? e.additionalDetails : null;
    const fallback = typeof e.message === "string" && e.message ? e.message : "the model API did not answer";
    return {
      type: "retrying",
      attempt: Math.max(this.retries, stated ? Number(stated[1]) : 0),
      max_attempts: stated ? Number(stated[2]) : null,
      message: (detail ?? fallback).slice(0, 200),
      delay_ms: null,
    };
  }

  /** Codex went away mid-turn (crash, exit): the one terminal says so. */
  fail(code: TurnErrorCode, message: string): AgentEvent[] {
    if (this.terminal) return [];
    return this.end({ type: "turn_error", code, message });
  }

  private completed(turn: Record<string, any>): AgentEvent[] {
    switch (turn.status) {
      case "failed":
        return this.end({ type: "turn_error", code: "codex_turn_failed", message: errorText(turn.error, "the Codex turn failed") });
      case "interrupted":
        return [...this.closeOpenItems(), ...this.end(this.turnDone("interrupted"))];
      default:
        return this.end(this.turnDone("end_turn"));
    }
  }

  private turnDone(stopReason: string): TurnDoneEvent {
    return {
      type: "turn_done",
      prompt_tokens: this.promptTokens,
      completion_tokens: this.completionTokens,
      stop_reason: stopReason,
      model: this.model,
    };
  }

  private end(terminal: TerminalEvent): AgentEvent[] {
    this.terminal = terminal;
    return [terminal];
  }

  private closeOpenItems(): AgentEvent[] {
    const events: AgentEvent[] = [];
    for (const item of this.open.values()) {
      const [call] = toolPair(item);
      events.push({ ...resultOf(call), output: null, error: "interrupted before it finished" });
    }
    this.open.clear();
    return events;
  }

  /**
   * Each update's `last` is one model call; a turn with tool calls makes several. Count a
   * `last` only when the thread total moved, because Codex repeats the previous figures
   * after an interrupt and when a thread is resumed.
   */
  private countTokens(usage: { total?: Usage; last?: Usage; modelContextWindow?: unknown } | undefined): AgentEvent[] {
    if (!usage?.last || !usage.total) return [];
    if (this.lastTotal !== undefined && usage.total.totalTokens <= this.lastTotal) return [];
    this.lastTotal = usage.total.totalTokens;
    this.promptTokens = (this.promptTokens ?? 0) + usage.last.inputTokens;
    this.completionTokens = (this.completionTokens ?? 0) + usage.last.outputTokens;
    // The context after this call: its prompt and output (`last`), against the model's window.
    const window = typeof usage.modelContextWindow === "number" && usage.modelContextWindow > 0 ? Math.trunc(usage.modelContextWindow) : null;
    return [{ type: "context_usage", used_tokens: usage.last.totalTokens, window_tokens: window }];
  }

  private concernsThisTurn(params: unknown): boolean {
    const p = params as { threadId?: unknown; turnId?: unknown; turn?: { id?: unknown } } | null;
    if (!p || p.threadId !== this.options.threadId) return false;
    const turnId = p.turnId ?? p.turn?.id;
    return turnId === undefined || turnId === this.options.turnId;
  }
}

/** RateLimitSnapshot (v2): primary/secondary windows; a sparse update may name neither. */
function rateLimits(params: unknown): PlanLimitsEvent[] {
  const snap = ((params as { rateLimits?: Record<string, any> } | null)?.rateLimits ?? {}) as Record<string, any>;
  const windows = (["primary", "secondary"] as const)
    .filter((name) => snap[name] && typeof snap[name].usedPercent === "number")
    .map((name) => ({
      window: name,
      used_percent: snap[name].usedPercent as number,
      resets_at: typeof snap[name].resetsAt === "number" ? new Date(snap[name].resetsAt * 1000).toISOString() : null,
      window_minutes: typeof snap[name].windowDurationMins === "number" ? (snap[name].windowDurationMins as number) : null,
    }));
  if (!windows.length) return [];
  const rejected = snap.rateLimitReachedType != null || windows.some((w) => w.used_percent >= 100);
  return [{ type: "plan_limits", status: rejected ? "rejected" : "allowed", windows }];
}

const TOOL_ITEMS = new Set(["commandExecution", "fileChange", "mcpToolCall", "webSearch"]);

function isToolItem(item: unknown): item is Item {
  const i = item as Item | null;
  return !!i && typeof i.id === "string" && TOOL_ITEMS.has(i.type);
}

/** A completed tool item as the call the agent made and what came of it. */
function toolPair(item: Item): [ToolCallEvent, ToolResultEvent] {
  const i = item as Record<string, any>;
  switch (item.type) {
    case "commandExecution": {
      const exitCode = typeof i.exitCode === "number" ? i.exitCode : null;
      const failed = i.status === "failed" || i.status === "declined" || (exitCode !== null && exitCode !== 0);
      const call = toolCall(item.id, "shell", { command: i.command, cwd: i.cwd });
      const output = { output: i.aggregatedOutput ?? "", exit_code: exitCode };
      const error = failed ? commandError(i.status, exitCode, i.aggregatedOutput) : null;
      return [call, { ...resultOf(call), output, error }];
    }
    case "fileChange": {
      const call = toolCall(item.id, "file_change", { changes: i.changes ?? [] });
      const failed = i.status === "failed" || i.status === "declined";
      return [call, { ...resultOf(call), output: { status: i.status }, error: failed ? `file change ${i.status}` : null }];
    }
    case "mcpToolCall": {
      const call = toolCall(item.id, `${i.server}__${i.tool}`, i.arguments ?? {});
      const error = i.status === "failed" ? errorText(i.error, "the MCP tool call failed") : null;
      return [call, { ...resultOf(call), output: i.result?.content ?? null, error }];
    }
    default: {
      const call = toolCall(item.id, "web_search", { query: i.query ?? "" });
      return [call, { ...resultOf(call), output: { action: i.action ?? null, results: i.results ?? null }, error: null }];
    }
  }
}

function toolCall(id: string, name: string, input: unknown): ToolCallEvent {
  return { type: "tool_call", tool_use_id: id, tool_name: name, tool_input: input };
}

function resultOf(call: ToolCallEvent): ToolResultEvent {
  return { type: "tool_result", tool_use_id: call.tool_use_id, tool_name: call.tool_name, output: null, error: null };
}

function commandError(status: unknown, exitCode: number | null, output: unknown): string {
  const tail = typeof output === "string" && output.trim() ? `: ${output.trim().slice(-500)}` : "";
  if (exitCode !== null && exitCode !== 0) return `command exited with code ${exitCode}${tail}`;
  return `command ${String(status)}${tail}`;
}

function errorText(error: unknown, fallback: string): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message ? message : fallback;
}

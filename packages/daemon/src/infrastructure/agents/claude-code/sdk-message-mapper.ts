import type { AgentEvent, ContextUsageEvent, PlanLimitsEvent, RetryingEvent, TurnDoneEvent, TurnErrorEvent } from "@coffer/protocol";

/**
 * Maps the Claude Agent SDK's messages for ONE turn onto our AgentEvents. Pure: no I/O,
 * no timers; the session feeds it messages and acts on what it returns. Shapes are read
 * loosely (the CLI adds fields every release) and checked where we depend on them.
 */
export interface MappedStep {
  readonly events: AgentEvent[];
  /** From system/init: the session to persist for resume. */
  readonly sessionId?: string;
  /** The turn's `result` arrived: the turn is over (events may hold its terminal). */
  readonly finished?: boolean;
  /** The stored session could not be resumed; the turn should be retried fresh. */
  readonly staleSession?: boolean;
}

type Json = Record<string, unknown>;

/** The CLI's wording when `--resume` names a session it has no transcript for. */
const STALE_SESSION = /No conversation found with session ID/i;

export class ClaudeTurnMapper {
  private readonly streamed = new Map<string, string>();
  private readonly delivered = new Map<string, string>();
  private readonly toolNames = new Map<string, string>();
  private currentMessageId: string | null = null;
  private initModel: string | null = null;
  private limitRejected = false;
  private replyModel: string | null = null;
  /** The latest model call's prompt (input + cache) and output, for the context gauge. */
  private lastPrompt: number | null = null;
  private lastOutput = 0;

  constructor(private readonly configuredModel: string | null) {}

  /** The model the CLI actually ran on, as far as this turn has told us. */
  get model(): string | null {
    return this.replyModel ?? this.initModel ?? this.configuredModel;
  }

  map(message: Json): MappedStep {
    switch (message.type) {
      case "system":
        return this.system(message);
      case "stream_event":
        return { events: this.streamEvent(obj(message.event)) };
      case "assistant":
        // An API failure arrives as a synthetic assistant message too; the result reports it.
        if (message.error !== undefined || message.parent_tool_use_id) return { events: [] };
        return { events: this.assistant(obj(message.message)) };
      case "user":
        // A subagent's inner turn stays inside it: its Task tool_result tells the story.
        if (message.parent_tool_use_id) return { events: [] };
        return { events: this.toolResults(obj(message.message)) };
      case "result":
        return this.result(message);
      case "rate_limit_event":
        return { events: [this.rateLimit(obj(message.rate_limit_info))] };
      default:
        return { events: [] };
    }
  }

  private system(message: Json): MappedStep {
    if (message.subtype === "api_retry") return { events: [apiRetry(message)] };
    if (message.subtype !== "init") return { events: [] };
    if (typeof message.model === "string") this.initModel = message.model;
    return { events: [], sessionId: str(message.session_id) };
  }

  /**
   * SDKRateLimitInfo (claude.ai sign-in only). `utilization` is 0–1; the CLI also sends
   * `unifiedWindows` (every window it knows, not in the SDK's types) which we prefer.
   */
  private rateLimit(info: Json): PlanLimitsEvent {
    const status = info.status === "rejected" ? "rejected" : info.status === "allowed_warning" ? "warning" : info.status === "allowed" ? "allowed" : null;
    if (status === "rejected") this.limitRejected = true;
    const unified = obj(info.unifiedWindows);
    const named: { name: string; utilization?: unknown; resetsAt?: unknown }[] = Object.keys(unified).length
      ? Object.entries(unified).map(([name, w]) => ({ name, ...obj(w) }))
      : typeof info.rateLimitType === "string"
        ? [{ name: info.rateLimitType, utilization: info.utilization, resetsAt: info.resetsAt }]
        : [];
    return {
      type: "plan_limits",
      status,
      windows: named.map((w) => ({
        window: w.name,
        used_percent: typeof w.utilization === "number" ? Math.round(w.utilization * 1000) / 10 : null,
        resets_at: typeof w.resetsAt === "number" ? new Date(w.resetsAt * 1000).toISOString() : null,
        window_minutes: w.name === "five_hour" ? 300 : w.name.startsWith("seven_day") ? 10_080 : null,
      })),
    };
  }

  private streamEvent(event: Json): AgentEvent[] {
    if (event.type === "message_start") {
      this.currentMessageId = str(obj(event.message).id) ?? null;
      this.callUsage(obj(obj(event.message).usage));
      return [];
    }
    if (event.type === "message_delta") {
      // The call's final output count arrives here; the prompt stays as message_start said.
      const output = obj(event.usage).output_tokens;
      if (typeof output === "number") this.lastOutput = output;
      return [];
    }
    const delta = obj(event.delta);
    if (event.type !== "content_block_delta" || delta.type !== "text_delta" || typeof delta.text !== "string") return [];
    if (!delta.text) return [];
    const key = this.currentMessageId ?? "";
    this.streamed.set(key, (this.streamed.get(key) ?? "") + delta.text);
    return [{ type: "text_delta", text: delta.text }];
  }

  /**
   * The complete assistant message repeats what the partial deltas already streamed.
   * Emit only text the deltas did not carry (none normally; all of it without partials).
   */
  private assistant(message: Json): AgentEvent[] {
    const model = str(message.model);
    if (model && model !== "<synthetic>") this.replyModel = model;
    this.callUsage(obj(message.usage));
    const id = str(message.id) ?? "";
    const events: AgentEvent[] = [];
    for (const block of arr(message.content)) {
      if (block.type === "text" && typeof block.text === "string") {
        const delivered = (this.delivered.get(id) ?? "") + block.text;
        this.delivered.set(id, delivered);
        const streamed = this.streamed.get(id) ?? "";
        if (delivered.length > streamed.length && delivered.startsWith(streamed)) {
          events.push({ type: "text_delta", text: delivered.slice(streamed.length) });
          this.streamed.set(id, delivered);
        }
      } else if (block.type === "tool_use" && typeof block.id === "string") {
        const name = str(block.name) ?? "tool";
        this.toolNames.set(block.id, name);
        events.push({ type: "tool_call", tool_use_id: block.id, tool_name: name, tool_input: block.input ?? {} });
      }
    }
    return events;
  }

  private toolResults(message: Json): AgentEvent[] {
    const events: AgentEvent[] = [];
    for (const block of arr(message.content)) {
      if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const output = toolOutput(block.content);
      events.push({
        type: "tool_result",
        tool_use_id: block.tool_use_id,
        tool_name: this.toolNames.get(block.tool_use_id) ?? "tool",
        output,
        error: block.is_error === true ? output || "the tool failed" : null,
      });
    }
    return events;
  }

  private result(message: Json): MappedStep {
    const errors = strings(message.errors);
    if (message.subtype === "success" && message.is_error !== true) {
      const context = this.contextUsage(message);
      return { events: context ? [context, this.done(message)] : [this.done(message)], finished: true };
    }
    if (errors.some((e) => STALE_SESSION.test(e))) return { events: [], finished: true, staleSession: true };
    if (this.limitRejected && message.api_error_status === 429) {
      // The CLI's own words name the window and its reset ("You've hit your 5-hour limit · resets 9:13pm").
      return { events: [{ type: "turn_error", code: "plan_limit", message: str(message.result) ?? "the plan limit is reached" }], finished: true };
    }
    return { events: [resultError(message, errors)], finished: true };
  }

  /** One model call's usage (message_start, or the complete assistant message): its prompt, and output so far. */
  private callUsage(usage: Json): void {
    if (typeof usage.input_tokens !== "number") return;
    this.lastPrompt = num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens);
    this.lastOutput = Math.max(typeof usage.output_tokens === "number" ? usage.output_tokens : 0, 0);
  }

  /**
   * How full the context is after the turn: the last call's prompt plus its output. The
   * window is modelUsage's `contextWindow` for the reply's model (cumulative figures there
   * are not used; the window is a constant of the model).
   */
  private contextUsage(message: Json): ContextUsageEvent | null {
    if (this.lastPrompt === null) return null;
    const models = obj(message.modelUsage);
    const entry = obj(models[this.model ?? ""] ?? Object.values(models)[0]);
    const window = typeof entry.contextWindow === "number" && entry.contextWindow > 0 ? Math.trunc(entry.contextWindow) : null;
    return { type: "context_usage", used_tokens: this.lastPrompt + this.lastOutput, window_tokens: window };
  }

  /** Per-run usage only: total_cost_usd and modelUsage are cumulative over the session. */
  private done(message: Json): TurnDoneEvent {
    const usage = obj(message.usage);
    const prompt = num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens);
    return {
      type: "turn_done",
      prompt_tokens: typeof usage.input_tokens === "number" ? prompt : null,
      completion_tokens: typeof usage.output_tokens === "number" ? usage.output_tokens : null,
      stop_reason: str(message.stop_reason) ?? "end_turn",
      model: this.model,
    };
  }
}

/** SDKAPIRetryMessage: `error_status` is null when no HTTP response came (refused, reset, timeout). */
function apiRetry(message: Json): RetryingEvent {
  const status = typeof message.error_status === "number" ? message.error_status : null;
  const kind = str(message.error);
  const why =
    status === null
      ? "connection failed (no response from the model API)"
      : `API ${status}${kind && kind !== "unknown" ? ` ${kind.replace(/_/g, " ")}` : ""}`;
  return {
    type: "retrying",
    attempt: Math.max(1, Math.trunc(num(message.attempt))),
    max_attempts: typeof message.max_retries === "number" ? message.max_retries : null,
    message: why,
    delay_ms: typeof message.retry_delay_ms === "number" ? Math.round(message.retry_delay_ms) : null,
  };
}

function resultError(message: Json, errors: string[]): TurnErrorEvent {
  if (message.subtype === "success") {
    // The turn ended on an API error; the CLI's text carries the API's own words.
    const status = typeof message.api_error_status === "number" ? ` (API ${message.api_error_status}${apiType(message)})` : "";
    return { type: "turn_error", code: "agent_api_error", message: `${str(message.result) ?? "the model API failed"}${status}` };
  }
  const detail = errors.filter((e) => !e.startsWith("[ede_diagnostic]")).join("; ");
  const why = detail || `Claude Code stopped the turn (${String(message.subtype)})`;
  return { type: "turn_error", code: "agent_error", message: why };
}

function apiType(message: Json): string {
  return typeof message.api_error_type === "string" ? ` ${message.api_error_type}` : "";
}

function toolOutput(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map((c) => (c.type === "text" && typeof c.text === "string" ? c.text : ""))
    .join("");
}

function obj(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function arr(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((v): v is Json => !!v && typeof v === "object") : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function num(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

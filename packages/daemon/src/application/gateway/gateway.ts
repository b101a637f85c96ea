import type { McpInvocationOutcome } from "@coffer/protocol";
import { z } from "zod";
import type { Clock, Logger } from "../ports.js";
import { BUILTIN_PREFIX, type BuiltinTool, type BuiltinToolRegistry } from "./builtin-tools.js";
import { OWNER, type GatewayPrincipal } from "./gateway-credentials.js";
import type { GatewayService, GatewayTool, Invocation, McpStore, NewInvocation, ToolCallResult, UpstreamTool, UpstreamTools } from "./gateway-ports.js";
import { capToolResult } from "./result-cap.js";

export type { GatewayTool } from "./gateway-ports.js";

/** Separates the server from the tool in an exposed name: `<server>__<tool>`. */
export const NAME_SEPARATOR = "__";
export const BUILTIN_SERVER = "coffer";

/**
 * No tool Coffer offers has a longer name (`<server ≤ 32>__<tool>`; MCP tool names are short
 * in practice). A longer one is refused before any lookup, and the log keeps only its start:
 * a call must never store (or echo back) megabytes. See docs/decisions.md.
 */
export const MAX_TOOL_NAME_CHARS = 200;
/** How much of an over-long tool name (or caller name) the log keeps. */
const LOGGED_NAME_CHARS = 64;

/** The invocation log's bounds (COFFER_MCP_LOG_MAX_AGE_DAYS, COFFER_MCP_LOG_MAX_ROWS). */
export interface InvocationLogLimits {
  /** null = no age bound. */
  readonly maxAgeMs: number | null;
  readonly maxRows: number;
}
export const DEFAULT_LOG_LIMITS: InvocationLogLimits = { maxAgeMs: 30 * 86_400_000, maxRows: 100_000 };

export interface GatewayDeps {
  readonly builtins: BuiltinToolRegistry;
  readonly upstreams: UpstreamTools;
  readonly store: McpStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Error text leaving the gateway (a builtin's failure may quote a provider's reply) is scrubbed of secrets. */
  readonly scrub?: (text: string) => string;
  readonly logLimits?: InvocationLogLimits;
  /** Each call as logged, the moment it is (the page's Tool calls log updates live from it). */
  readonly onLogged?: (invocation: Invocation) => void;
}

/**
 * The catalogue and the call path behind `/mcp`: Coffer's builtin tools plus every
 * reachable upstream's tools. A call never throws at the agent: every failure becomes an
 * error result naming the problem, and every call is logged (never its arguments or result).
 */
export class ToolGateway implements GatewayService {
  private readonly schemas = new WeakMap<BuiltinTool, Record<string, unknown>>();
  private readonly limits: InvocationLogLimits;
  /** The row cap is enforced every this many inserts (cheap: a primary-key range delete). */
  private readonly pruneEvery: number;
  private sincePrune = 0;

  constructor(private readonly deps: GatewayDeps) {
    this.limits = deps.logLimits ?? DEFAULT_LOG_LIMITS;
    // At most 10% over the cap between prunes, and never more than 1,000 inserts apart.
    this.pruneEvery = Math.max(1, Math.min(1000, Math.floor(this.limits.maxRows / 10)));
  }

  /** Applies both bounds now (at start and on every retention pass); returns the rows removed. */
  pruneLog(): number {
    const { maxAgeMs, maxRows } = this.limits;
    this.sincePrune = 0;
    return this.deps.store.pruneInvocations(maxAgeMs === null ? null : this.deps.clock.now() - maxAgeMs, maxRows);
  }

  /** What `tools/list` answers: builtins, then the tools of upstreams that are up. */
  async listTools(): Promise<GatewayTool[]> {
    await this.deps.upstreams.settled();
    return [...this.builtinTools(), ...this.upstreamTools()];
  }

  builtinTools(): GatewayTool[] {
    return this.deps.builtins.list().map((tool) => ({
      name: BUILTIN_PREFIX + tool.name,
      server: BUILTIN_SERVER,
      description: tool.description,
      inputSchema: this.schemaOf(tool),
      annotations: { readOnlyHint: tool.readOnly },
    }));
  }

  /** Tools of upstreams that are up right now (never waits). */
  upstreamTools(): GatewayTool[] {
    return this.deps.upstreams
      .states()
      .filter((s) => s.status === "ready")
      .flatMap((s) => s.tools.map((t) => exposed(s.server, t)));
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    caller: string,
    signal?: AbortSignal,
    principal: GatewayPrincipal = OWNER,
  ): Promise<ToolCallResult> {
    const started = this.deps.clock.now();
    if (name.length > MAX_TOOL_NAME_CHARS) {
      const refused = failed("unknown_tool", `unknown tool: its name is ${name.length} characters long; Coffer's tool names are at most ${MAX_TOOL_NAME_CHARS}`);
      this.record({ at: started, caller, tool: clip(name), server: "", duration_ms: 0, outcome: refused.outcome, ...callerOf(principal) });
      return refused.result;
    }
    const builtin = this.deps.builtins.get(name);
    const server = builtin ? BUILTIN_SERVER : name.includes(NAME_SEPARATOR) ? name.slice(0, name.indexOf(NAME_SEPARATOR)) : "";
    const { result, outcome } = builtin
      ? await this.callBuiltin(builtin, args, caller, principal, signal)
      : await this.callUpstream(name, server, args, signal);
    const at = this.deps.clock.now();
    this.record({ at, caller, tool: name, server, duration_ms: Math.max(0, at - started), outcome, ...callerOf(principal) });
    return result;
  }

  private record(invocation: NewInvocation): void {
    const logged = this.deps.store.recordInvocation({ ...invocation, caller: clip(invocation.caller) });
    this.deps.onLogged?.(logged);
    if (++this.sincePrune >= this.pruneEvery) {
      this.sincePrune = 0;
      this.deps.store.pruneInvocations(null, this.limits.maxRows);
    }
  }

  private async callBuiltin(
    tool: BuiltinTool,
    args: Record<string, unknown>,
    caller: string,
    principal: GatewayPrincipal,
    signal?: AbortSignal,
  ): Promise<Called> {
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `'${issue.path.join(".")}'` : "arguments";
      return failed("invalid_arguments", `${BUILTIN_PREFIX}${tool.name}: invalid ${where}: ${issue?.message ?? "not valid"}`);
    }
    let outcome;
    try {
      outcome = await tool.run(parsed.data, { caller, principal, signal });
    } catch (err) {
      // Tools report failures as outcomes; a throw is a bug. It is logged, and the agent's turn goes on.
      this.deps.logger.error("builtin tool threw", { tool: tool.name, err: String((err as Error)?.stack ?? err) });
      return failed("error", `${BUILTIN_PREFIX}${tool.name} failed unexpectedly; see the daemon's log`);
    }
    if (!outcome.ok) return failed("error", this.deps.scrub ? this.deps.scrub(outcome.error) : outcome.error);
    return { outcome: "ok", result: { content: [{ type: "text", text: JSON.stringify(outcome.value) }] } };
  }

  private async callUpstream(name: string, server: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Called> {
    const state = this.deps.upstreams.states().find((s) => s.server === server);
    const toolName = name.slice(server.length + NAME_SEPARATOR.length);
    if (!server || !state) return failed("unknown_tool", `unknown tool "${name}": no such server "${server || name}" in Coffer's gateway`);
    if (state.status !== "ready") {
      const why = state.status === "disabled" ? "is disabled" : `is unavailable (${state.error ?? state.status})`;
      return failed("unavailable", `MCP server "${server}" ${why}; "${name}" cannot run now`);
    }
    if (!state.tools.some((t) => t.name === toolName)) return failed("unknown_tool", `unknown tool "${name}": "${server}" has no tool "${toolName}"`);
    const called = await this.deps.upstreams.call(server, toolName, args, signal);
    if (called.kind !== "result") return failed(called.kind, called.message);
    return { outcome: called.result.isError ? "error" : "ok", result: capToolResult(called.result) };
  }

  private schemaOf(tool: BuiltinTool): Record<string, unknown> {
    let schema = this.schemas.get(tool);
    if (!schema) {
      const { $schema: _dropped, ...rest } = z.toJSONSchema(tool.input, { io: "input", target: "draft-7", unrepresentable: "any" }) as Record<string, unknown>;
      schema = rest;
      this.schemas.set(tool, schema);
    }
    return schema;
  }
}

interface Called {
  readonly outcome: McpInvocationOutcome;
  readonly result: ToolCallResult;
}

/** Who the log names for a call: the agent and conversation its credential stands for, or nobody (the owner's client). */
function callerOf(principal: GatewayPrincipal): Pick<NewInvocation, "agent_key" | "conversation_id"> {
  return principal.kind === "agent" ? { agent_key: principal.agent, conversation_id: principal.conversationId } : { agent_key: null, conversation_id: null };
}

/** An over-long name as the log keeps it: its start and how long it was. */
function clip(name: string): string {
  return name.length <= MAX_TOOL_NAME_CHARS ? name : `${name.slice(0, LOGGED_NAME_CHARS)}… (${name.length} chars)`;
}

function failed(outcome: McpInvocationOutcome, message: string): Called {
  return { outcome, result: { content: [{ type: "text", text: message }], isError: true } };
}

export function exposed(server: string, tool: UpstreamTool): GatewayTool {
  return {
    name: `${server}${NAME_SEPARATOR}${tool.name}`,
    server,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

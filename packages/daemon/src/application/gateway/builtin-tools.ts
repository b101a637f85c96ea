import type { z } from "zod";
import type { GatewayPrincipal } from "./gateway-credentials.js";

/**
 * Coffer's own gateway tools (`coffer__<name>`). The gateway lists and calls them next to
 * the upstream servers' tools; vault modules (skills, memory, knowledge, ask) register here.
 * Input schemas are zod schemas from @coffer/protocol (the wire contract), so the gateway can
 * publish JSON Schema for them and validate every call the same way.
 */
export interface BuiltinTool<S extends z.ZodType = z.ZodType> {
  /** Bare name, e.g. "recall"; the gateway exposes it as "coffer__recall". */
  readonly name: string;
  readonly description: string;
  readonly input: S;
  /** Read-only tools are the only ones `coffer__ask` may use. */
  readonly readOnly: boolean;
  run(args: z.output<S>, context: ToolContext): Promise<ToolOutcome>;
}

export interface ToolContext {
  /** Who is calling: the MCP client's name (e.g. "claude-code", "codex-mcp-client") or "coffer-ask". */
  readonly caller: string;
  /** Who authenticated (owner or which agent, from the credential); absent = in-process, the owner. */
  readonly principal?: GatewayPrincipal;
  readonly signal?: AbortSignal;
}

/** A tool never throws at its caller: a failure is an error result the agent can read. */
export type ToolOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export const BUILTIN_PREFIX = "coffer__";

export class BuiltinToolRegistry {
  private readonly tools = new Map<string, BuiltinTool>();

  register<S extends z.ZodType>(tool: BuiltinTool<S>): void {
    if (tool.name.startsWith(BUILTIN_PREFIX)) throw new Error(`register "${tool.name}" without the ${BUILTIN_PREFIX} prefix`);
    if (this.tools.has(tool.name)) throw new Error(`builtin tool "${tool.name}" is registered twice`);
    this.tools.set(tool.name, tool as unknown as BuiltinTool);
  }

  list(): BuiltinTool[] {
    return [...this.tools.values()];
  }

  /** Looks a tool up by its exposed (prefixed) name. */
  get(exposedName: string): BuiltinTool | undefined {
    return exposedName.startsWith(BUILTIN_PREFIX) ? this.tools.get(exposedName.slice(BUILTIN_PREFIX.length)) : undefined;
  }
}

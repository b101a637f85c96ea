import type { McpInvocationOutcome, McpServerStatus, SecretValue } from "@coffer/protocol";

/**
 * An owner-configured upstream MCP server, as stored; the upstream pool launches or calls it from
 * this. Its fields carry the API's names, so the store and the wire shape each read it without a
 * field-by-field copy (docs/decisions.md, "Each record mapped once"). Times in epoch ms.
 */
export interface McpServerConfig {
  readonly name: string;
  readonly transport: "stdio" | "http";
  readonly command: string | null;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, SecretValue>>;
  readonly cwd: string | null;
  readonly url: string | null;
  readonly headers: Readonly<Record<string, SecretValue>>;
  readonly enabled: boolean;
  readonly startup_timeout_ms: number;
  readonly tool_timeout_ms: number;
  readonly created_at: number;
  readonly updated_at: number;
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** A tool as an upstream server lists it (raw name, schema passed through unchanged). */
export interface UpstreamTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

export interface UpstreamState {
  readonly server: string;
  readonly status: McpServerStatus;
  /** Why the server is failed (or was, while it reconnects), in plain words. */
  readonly error: string | null;
  /** The last good catalogue; kept while the server is down so the owner still sees it. */
  readonly tools: readonly UpstreamTool[];
}

/** An MCP `tools/call` result, passed through as the upstream sent it. */
export interface ToolCallResult {
  readonly content: readonly Record<string, unknown>[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

export type UpstreamCallOutcome =
  | { readonly kind: "result"; readonly result: ToolCallResult }
  | { readonly kind: "unavailable" | "timeout" | "failed"; readonly message: string };

/** The live connections to upstream servers (implemented with the MCP SDK in infrastructure/mcp). */
export interface UpstreamTools {
  /** Start, restart or stop one server so it matches its config (disabled = stopped). */
  configure(config: McpServerConfig): void;
  remove(name: string): Promise<void>;
  states(): UpstreamState[];
  /**
   * Resolves once no server is on its first connect any more — each waited for at most its
   * own startup timeout — so a listing never waits longer than the slowest such timeout.
   */
  settled(): Promise<void>;
  call(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<UpstreamCallOutcome>;
  close(): Promise<void>;
}

/** How an agent reaches the gateway: `/mcp` and its own gateway-only credential (never the daemon token). */
export interface GatewayAccess {
  readonly url: string;
  readonly token: string;
}

/** Resolves a credential reference to its secret (the credential store; a placeholder until it lands). */
export interface SecretResolver {
  resolve(ref: string): Promise<string>;
}

/** A logged tool call as stored: the row's columns (`at` in epoch ms). */
export interface NewInvocation {
  readonly at: number;
  readonly caller: string;
  readonly tool: string;
  readonly server: string;
  readonly duration_ms: number;
  readonly outcome: McpInvocationOutcome;
  /** The managed agent and conversation behind the call's credential; null for the owner's own client. */
  readonly agent_key: string | null;
  readonly conversation_id: string | null;
}

export interface Invocation extends NewInvocation {
  readonly id: number;
  /** The conversation's title as it is now; null when there is none (or it was deleted). */
  readonly conversation_title: string | null;
}

export interface InvocationQuery {
  readonly limit: number;
  readonly before?: number;
  readonly server?: string;
  readonly tool?: string;
}

/** SQLite-backed stores for the gateway. Every method is synchronous. */
export interface McpStore {
  listServers(): McpServerConfig[];
  getServer(name: string): McpServerConfig | null;
  insertServer(config: McpServerConfig): void;
  updateServer(config: McpServerConfig): void;
  deleteServer(name: string): boolean;
  /** Logs the call and returns it as the log lists it. */
  recordInvocation(invocation: NewInvocation): Invocation;
  /** Deletes rows older than `olderThan` (ms; null = no age bound) and all but the newest `keepNewest`; returns how many went. */
  pruneInvocations(olderThan: number | null, keepNewest: number): number;
  listInvocations(query: InvocationQuery): { invocations: Invocation[]; hasMore: boolean };
}

/** A tool as the gateway offers it to agents. */
export interface GatewayTool {
  readonly name: string;
  readonly server: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

/** What the MCP endpoint serves: the gateway's catalogue and its call path (ToolGateway). */
/** Who is calling the gateway: the owner (daemon token) or one agent in one conversation. */
export type GatewayPrincipal =
  | { readonly kind: "owner" }
  | { readonly kind: "agent"; readonly agent: string; readonly conversationId: string };

export interface GatewayService {
  listTools(): Promise<GatewayTool[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    caller: string,
    signal?: AbortSignal,
    principal?: GatewayPrincipal,
  ): Promise<ToolCallResult>;
}

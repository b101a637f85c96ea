import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { loadedMcpTypes, mcpClientSdk } from "./mcp-sdk.js";
import type { McpServerStatus } from "@coffer/protocol";
import type { Logger } from "../../application/ports.js";
import type {
  McpServerConfig,
  SecretResolver,
  ToolCallResult,
  UpstreamCallOutcome,
  UpstreamState,
  UpstreamTool,
} from "../../application/gateway/gateway-ports.js";
import { openTransport, type OpenedTransport } from "./upstream-transport.js";

const TIMED_OUT = Symbol("startup timeout");
const STOPPED = Symbol("stopped");

interface Attempt {
  readonly abort: AbortController;
  opened: OpenedTransport | null;
}

/** How long a stopped stdio server may take to exit before it is killed. */
const STOP_GRACE_MS = 1000;

export interface ConnectionOptions {
  readonly secrets: SecretResolver;
  /** Replaces known secrets in a server's stderr (docs/decisions.md, "Secrets and audit"). */
  readonly scrub?: (text: string) => string;
  readonly logger: Logger;
  readonly clientVersion: string;
  /** Reconnect delays: first, doubling up to max. */
  readonly backoff: { readonly firstMs: number; readonly maxMs: number };
}

/**
 * One upstream MCP server: connects with a deadline (its startup timeout), keeps the last
 * good tool list, and reconnects with backoff after a failure or a crash. It never throws at
 * the gateway: a failure is a status plus a plain-words error.
 */
export class UpstreamConnection {
  private status: McpServerStatus = "connecting";
  private error: string | null = null;
  private tools: UpstreamTool[] = [];
  private client: Client | null = null;
  private opened: OpenedTransport | null = null;
  /** Bumped on every (re)start and stop, so callbacks of an older attempt are ignored. */
  private generation = 0;
  private attempts = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt: Attempt | null = null;
  /** Pending while the first connect since (re)configuration runs; bounded by the startup timeout. */
  private firstAttempt: Promise<void> | null = null;

  constructor(
    private config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  get name(): string {
    return this.config.name;
  }

  state(): UpstreamState {
    return { server: this.config.name, status: this.status, error: this.error, tools: this.tools };
  }

  /** Waits for the first connect after (re)configuration; never longer than the startup timeout. */
  settled(): Promise<void> {
    return this.firstAttempt ?? Promise.resolve();
  }

  /** Applies a new config: restarts when anything about the launch changed. */
  reconfigure(config: McpServerConfig): void {
    const changed = launchKey(config) !== launchKey(this.config) || config.enabled !== this.config.enabled;
    this.config = config;
    if (!changed) return;
    // stop() detaches the old client synchronously; its process winds down in the background.
    void this.stop();
    this.start();
  }

  start(): void {
    if (!this.config.enabled) {
      this.status = "disabled";
      return;
    }
    const generation = ++this.generation;
    this.status = "connecting";
    this.error = null;
    this.tools = [];
    this.attempts = 0;
    this.firstAttempt = this.connect(generation).finally(() => {
      if (generation === this.generation) this.firstAttempt = null;
    });
  }

  async stop(): Promise<void> {
    this.generation += 1;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.firstAttempt = null;
    this.status = "disabled";
    // An attempt still starting is cut short, and its child killed, so none outlives the daemon.
    const attempt = this.attempt;
    this.attempt = null;
    attempt?.abort.abort(STOPPED);
    await Promise.all([this.detach(STOP_GRACE_MS), attempt?.opened?.shutdown(0)]);
  }

  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<UpstreamCallOutcome> {
    const client = this.client;
    if (!client || this.status !== "ready") return { kind: "unavailable", message: `MCP server "${this.name}" is unavailable` };
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: this.config.tool_timeout_ms,
        ...(signal ? { signal } : {}),
      });
      return { kind: "result", result: result as ToolCallResult };
    } catch (err) {
      const { McpError, ErrorCode } = loadedMcpTypes();
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        return { kind: "timeout", message: `"${this.name}__${tool}" did not answer within ${this.config.tool_timeout_ms} ms` };
      }
      const message = describe(err, this.opened);
      // A broken connection (crash, HTTP server gone) means reconnecting; a JSON-RPC error from a live server does not.
      if (!(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed) this.fail(this.generation, message);
      return { kind: "failed", message: `MCP server "${this.name}" failed on "${tool}": ${message}` };
    }
  }

  private async connect(generation: number): Promise<void> {
    const attempt: Attempt = { abort: new AbortController(), opened: null };
    this.attempt = attempt;
    const timer = setTimeout(() => attempt.abort.abort(TIMED_OUT), this.config.startup_timeout_ms);
    let client: Client | null = null;
    try {
      const opened = (attempt.opened = await openTransport(this.config, this.options.secrets, this.options.scrub));
      const { Client } = await mcpClientSdk();
      client = new Client({ name: "coffer-gateway", version: this.options.clientVersion }, { capabilities: {} });
      const options = { signal: attempt.abort.signal, timeout: this.config.startup_timeout_ms };
      await client.connect(opened.transport, options);
      const tools = await listAllTools(client, options);
      if (generation !== this.generation) return void (await opened.shutdown(STOP_GRACE_MS));
      this.adopt(generation, client, opened, tools);
    } catch (err) {
      // A server that failed to start gets no grace; never wait for it here either.
      void attempt.opened?.shutdown(0);
      if (generation !== this.generation) return;
      const message =
        attempt.abort.signal.reason === TIMED_OUT
          ? `no answer within ${this.config.startup_timeout_ms} ms (startup timeout)${tail(attempt.opened)}`
          : describe(err, attempt.opened);
      this.fail(generation, message);
    } finally {
      clearTimeout(timer);
      if (this.attempt === attempt) this.attempt = null;
    }
  }

  private adopt(generation: number, client: Client, opened: OpenedTransport, tools: UpstreamTool[]): void {
    this.client = client;
    this.opened = opened;
    this.tools = tools;
    this.status = "ready";
    this.error = null;
    this.attempts = 0;
    client.onclose = () => {
      if (generation === this.generation && this.client === client) this.fail(generation, `the server closed the connection${tail(opened)}`);
    };
    client.setNotificationHandler(loadedMcpTypes().ToolListChangedNotificationSchema, () => {
      void listAllTools(client, { timeout: this.config.startup_timeout_ms }).then(
        (fresh) => {
          if (generation === this.generation) this.tools = fresh;
        },
        (err: unknown) => this.options.logger.warn("mcp upstream tool refresh failed", { server: this.name, err: String(err) }),
      );
    });
    this.options.logger.info("mcp upstream ready", { server: this.name, tools: tools.length });
  }

  private fail(generation: number, message: string): void {
    if (generation !== this.generation || this.status === "disabled") return;
    this.status = "failed";
    this.error = message;
    void this.detach(0);
    const delay = Math.min(this.options.backoff.maxMs, this.options.backoff.firstMs * 2 ** this.attempts);
    this.attempts += 1;
    this.options.logger.warn("mcp upstream failed", { server: this.name, error: message, retryInMs: delay });
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (generation === this.generation) void this.connect(generation);
    }, delay);
    this.retryTimer.unref();
  }

  /** Forgets the live connection and winds it down (the child gets `graceMs` to exit). */
  private detach(graceMs: number): Promise<void> {
    const { client, opened } = this;
    this.client = null;
    this.opened = null;
    if (client) client.onclose = undefined;
    return opened ? opened.shutdown(graceMs) : Promise.resolve();
  }
}

async function listAllTools(client: Client, options: { signal?: AbortSignal; timeout: number }): Promise<UpstreamTool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, options);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools.map((t) => ({
    name: t.name,
    description: t.description ?? t.title ?? "",
    inputSchema: t.inputSchema as Record<string, unknown>,
    ...(t.annotations ? { annotations: t.annotations as Record<string, unknown> } : {}),
  }));
}

/** Everything that decides how the server is launched or reached. */
function launchKey(c: McpServerConfig): string {
  return JSON.stringify([c.transport, c.command, c.args, c.env, c.cwd, c.url, c.headers, c.startup_timeout_ms]);
}

function describe(err: unknown, opened: OpenedTransport | null): string {
  const e = err as { message?: string; code?: unknown; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? (typeof e?.code === "string" ? e.code : undefined);
  const base = e?.message ?? String(err);
  return `${base}${cause && !base.includes(cause) ? ` (${cause})` : ""}${tail(opened)}`;
}

function tail(opened: OpenedTransport | null): string {
  const stderr = opened?.stderrTail().trim();
  return stderr ? `; stderr: ${stderr}` : "";
}

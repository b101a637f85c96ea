import type {
  McpServerCreate,
  McpServerOut,
  McpServerPatch,
  McpToolOut,
} from "@coffer/protocol";
import { McpServerExists, McpServerNotFound, McpServerPatchRejected } from "../../domain/vault-errors.js";
import type { AuditSink } from "../audit-log.js";
import type { Clock } from "../ports.js";
import { withIsoTimes } from "../presenters.js";
import { BUILTIN_SERVER, exposed, type ToolGateway } from "./gateway.js";
import {
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  type McpServerConfig,
  type McpStore,
  type UpstreamState,
  type UpstreamTools,
} from "./gateway-ports.js";

const STDIO_ONLY = ["command", "args", "env", "cwd"] as const;
const HTTP_ONLY = ["url", "headers"] as const;

export interface McpServerServiceDeps {
  readonly store: McpStore;
  readonly upstreams: UpstreamTools;
  readonly gateway: ToolGateway;
  readonly clock: Clock;
  /** A server runs a command or calls a URL: every add, change, enable, disable and removal is audited. */
  readonly audit: AuditSink;
}

/** The owner's upstream MCP servers: stored config, kept in step with the live connections (the call log is McpInvocations). */
export class McpServerService {
  constructor(private readonly deps: McpServerServiceDeps) {}

  /** Connects every stored server in the background (daemon start). */
  startAll(): void {
    for (const config of this.deps.store.listServers()) this.deps.upstreams.configure(config);
  }

  list(): McpServerOut[] {
    const states = this.states();
    return this.deps.store.listServers().map((c) => toServerOut(c, states.get(c.name)));
  }

  get(name: string): McpServerOut {
    return toServerOut(this.config(name), this.states().get(name));
  }

  create(input: McpServerCreate): McpServerOut {
    if (this.deps.store.getServer(input.name)) throw new McpServerExists(input.name);
    const now = this.deps.clock.now();
    const stdio = input.transport === "stdio" ? input : null;
    const http = input.transport === "http" ? input : null;
    const config: McpServerConfig = {
      name: input.name,
      transport: input.transport,
      command: stdio?.command ?? null,
      args: stdio?.args ?? [],
      env: stdio?.env ?? {},
      cwd: stdio?.cwd ?? null,
      url: http?.url ?? null,
      headers: http?.headers ?? {},
      enabled: input.enabled,
      startup_timeout_ms: input.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS,
      tool_timeout_ms: input.tool_timeout_ms ?? DEFAULT_TOOL_TIMEOUT_MS,
      created_at: now,
      updated_at: now,
    };
    this.deps.store.insertServer(config);
    this.deps.audit("user", "mcp_server_added", launchDetails(config), now);
    this.deps.upstreams.configure(config);
    return this.get(config.name);
  }

  update(name: string, patch: McpServerPatch): McpServerOut {
    const current = this.config(name);
    const foreign = (current.transport === "stdio" ? HTTP_ONLY : STDIO_ONLY).filter((f) => patch[f] !== undefined);
    if (foreign.length) throw new McpServerPatchRejected(current.transport, foreign);
    // The patch names the config's own fields: the ones given replace the stored ones.
    const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<McpServerConfig>;
    const next: McpServerConfig = { ...current, ...given, updated_at: this.deps.clock.now() };
    this.deps.store.updateServer(next);
    const fields = Object.keys(patch).filter((k) => patch[k as keyof McpServerPatch] !== undefined);
    const action = fields.length === 1 && fields[0] === "enabled" ? (next.enabled ? "mcp_server_enabled" : "mcp_server_disabled") : "mcp_server_changed";
    this.deps.audit("user", action, action === "mcp_server_changed" ? { ...launchDetails(next), fields } : { name }, next.updated_at);
    this.deps.upstreams.configure(next);
    return this.get(name);
  }

  setEnabled(name: string, enabled: boolean): McpServerOut {
    return this.update(name, { enabled });
  }

  async remove(name: string): Promise<void> {
    if (!this.deps.store.deleteServer(name)) throw new McpServerNotFound(name);
    this.deps.audit("user", "mcp_server_removed", { name }, this.deps.clock.now());
    await this.deps.upstreams.remove(name);
  }

  /** Everything the gateway knows, offered or not: Coffer's tools, then each server's last known tools. */
  tools(): McpToolOut[] {
    const builtins = this.deps.gateway.builtinTools().map((t) => ({
      name: t.name,
      server: BUILTIN_SERVER,
      description: t.description,
      input_schema: t.inputSchema,
      available: true,
    }));
    return [...builtins, ...this.list().flatMap((s) => s.tools)];
  }

  private config(name: string): McpServerConfig {
    const config = this.deps.store.getServer(name);
    if (!config) throw new McpServerNotFound(name);
    return config;
  }

  private states(): Map<string, UpstreamState> {
    return new Map(this.deps.upstreams.states().map((s) => [s.server, s]));
  }
}

/** What a server will run or call, for the audit log: env and header names only, never their values. */
function launchDetails(c: McpServerConfig): Record<string, unknown> {
  return c.transport === "stdio"
    ? { name: c.name, transport: c.transport, command: c.command, args: [...c.args], cwd: c.cwd, env: Object.keys(c.env), enabled: c.enabled }
    : { name: c.name, transport: c.transport, url: c.url, headers: Object.keys(c.headers), enabled: c.enabled };
}

function toServerOut(c: McpServerConfig, state: UpstreamState | undefined): McpServerOut {
  const status = c.enabled ? (state?.status ?? "connecting") : "disabled";
  return {
    ...withIsoTimes(c),
    args: [...c.args],
    env: { ...c.env },
    headers: { ...c.headers },
    status,
    error: state?.error ?? null,
    tools: (state?.tools ?? []).map((t) => {
      const g = exposed(c.name, t);
      return { name: g.name, server: c.name, description: g.description, input_schema: g.inputSchema, available: status === "ready" };
    }),
  };
}

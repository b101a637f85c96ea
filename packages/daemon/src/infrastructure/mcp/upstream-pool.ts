import type {
  McpServerConfig,
  UpstreamCallOutcome,
  UpstreamState,
  UpstreamTools,
} from "../../application/gateway/gateway-ports.js";
import { UpstreamConnection, type ConnectionOptions } from "./upstream-connection.js";

export const DEFAULT_BACKOFF = { firstMs: 1000, maxMs: 60_000 } as const;

/** Every configured upstream server, one {@link UpstreamConnection} each. */
export class UpstreamPool implements UpstreamTools {
  private readonly connections = new Map<string, UpstreamConnection>();

  constructor(private readonly options: ConnectionOptions) {}

  configure(config: McpServerConfig): void {
    const existing = this.connections.get(config.name);
    if (existing) return existing.reconfigure(config);
    const connection = new UpstreamConnection(config, this.options);
    this.connections.set(config.name, connection);
    connection.start();
  }

  async remove(name: string): Promise<void> {
    const connection = this.connections.get(name);
    this.connections.delete(name);
    await connection?.stop();
  }

  states(): UpstreamState[] {
    return [...this.connections.values()].map((c) => c.state());
  }

  async settled(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.settled()));
  }

  async call(server: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<UpstreamCallOutcome> {
    const connection = this.connections.get(server);
    if (!connection) return { kind: "unavailable", message: `no MCP server named "${server}"` };
    return connection.call(tool, args, signal);
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.stop()));
  }
}

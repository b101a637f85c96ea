import type { Server } from "node:http";
import type { Socket } from "node:net";

/** How many connections one listener holds, and how fast a connection must send its request. */
export interface ConnectionLimits {
  /** Open connections at most (COFFER_MAX_CONNECTIONS); past it the oldest one still without a request goes. */
  readonly maxConnections: number;
  /** A connection whose request head has not arrived by then is cut (Node's headersTimeout). */
  readonly headersTimeoutMs: number;
  /** The whole request (head and body; never the response, so SSE streams live on) must arrive by then. */
  readonly requestTimeoutMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: Omit<ConnectionLimits, "maxConnections"> = { headersTimeoutMs: 10_000, requestTimeoutMs: 120_000 };

/** Node's server options for these limits (timeouts are checked every second, not every 30). */
export function serverTimeouts(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  };
}

/**
 * Caps a listener's open connections. Each new connection counts; past the cap the oldest
 * connection that has not yet sent a complete request is destroyed (a flood of half-open
 * connections evicts itself, while streams and requests in progress are kept), and if every
 * connection is busy, the new one is refused. So another local user cannot fill the daemon's
 * descriptors (docs/decisions.md, "Hardening II").
 */
export function capConnections(server: Server, maxConnections: number): void {
  const waiting = new Set<Socket>();
  let open = 0;
  server.on("connection", (socket: Socket) => {
    open += 1;
    waiting.add(socket);
    socket.once("close", () => {
      open -= 1;
      waiting.delete(socket);
    });
    if (open <= maxConnections) return;
    const oldest: Socket | undefined = waiting.values().next().value;
    (oldest ?? socket).destroy();
  });
  server.on("request", (req: { socket: Socket }) => waiting.delete(req.socket));
}

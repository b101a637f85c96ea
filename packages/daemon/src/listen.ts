import { chmodSync, lstatSync, unlinkSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { capConnections, DEFAULT_CONNECTION_LIMITS, serverTimeouts } from "./http/connection-guard.js";
import { answerMalformedRequests } from "./http/malformed-requests.js";

type Fetch = Parameters<typeof createAdaptorServer>[0]["fetch"];

/** One hardened HTTP server for the app: capped connections, quick cut of requests that never arrive. */
function hardenedServer(fetch: Fetch, maxConnections: number): Server {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, maxConnections };
  const server = createAdaptorServer({ fetch, serverOptions: serverTimeouts(limits) }) as Server;
  capConnections(server, maxConnections);
  answerMalformedRequests(server);
  return server;
}

function listening(server: Server, listen: (done: () => void) => void): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    listen(() => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/** The app on 127.0.0.1:`port` (0 = any free port). */
export function listenTcp(fetch: Fetch, port: number, maxConnections: number): Promise<Server> {
  const server = hardenedServer(fetch, maxConnections);
  return listening(server, (done) => server.listen(port, "127.0.0.1", done));
}

/**
 * The same app on `<data dir>/daemon.sock`, 0600 inside the 0700 data dir: only the owner can
 * connect, and only the owner could have bound it, so the CLI needs no proof there and no other
 * local user can flood it (docs/decisions.md, "Hardening II"). Null when the path is taken by
 * something that is not a socket (never removed) or the socket cannot be bound.
 */
export async function listenSocket(fetch: Fetch, home: string, maxConnections: number): Promise<{ server: Server; path: string } | null> {
  const path = join(home, "daemon.sock");
  try {
    // A socket left by a killed daemon (the data dir's lock says no other daemon runs).
    if (lstatSync(path).isSocket()) unlinkSync(path);
    else return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") return null;
  }
  const server = hardenedServer(fetch, maxConnections);
  try {
    await listening(server, (done) => server.listen(path, done));
  } catch {
    return null;
  }
  chmodSync(path, 0o600);
  return { server, path };
}

/** Removes the socket file if it is still a socket (never whatever else took its name). */
export function removeSocket(path: string): void {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // already gone
  }
}

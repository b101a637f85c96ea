/**
 * The HTTP floor: a bare node:http server in its own process answering each bench query
 * with a JSON body the size of the daemon's answer (re-serialised per request, as any
 * JSON API must). Reads `{ path: body }` from the file given as argv[2]; prints its port.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

const bodies = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, unknown>;

const server = http.createServer((req, res) => {
  const body = bodies[req.url ?? ""];
  if (body === undefined) {
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"code":"NOT_FOUND","message":"","details":null}}');
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));

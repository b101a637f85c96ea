/**
 * The floor for bench/live-bus: a bare node:http SSE server in its own process pushing
 * frames shaped like the daemon's (same id/event/data framing, same delta text, each
 * frame encoded once) to every subscriber, with the scripted agent's pacing.
 *   GET  /events                 subscribe
 *   POST /run?n=N&perSecond=R    one "turn": turn_start, N clock deltas, turn_done (202 at once)
 *   POST /send                   turn_start then turn_done, then 202 (the send→turn_start floor)
 * Prints {"port":P}.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const subscribers = new Set<http.ServerResponse>();
const epoch = Date.now().toString(36);
let seq = 0;
const wallClockMs = () => performance.timeOrigin + performance.now();

function publish(event: Record<string, unknown>): void {
  seq += 1;
  const text = `id: ${epoch}-${seq}\nevent: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
  for (const res of subscribers) res.write(text);
}

// Roughly the size of the daemon's turn_start (it carries the committed user message).
function turnStart(): Record<string, unknown> {
  return {
    type: "turn_start",
    turn_id: "4f0c2a9e1b7d4c3a8e6f5d2c1b0a9e8d",
    user_message: {
      id: "9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a",
      conversation_id: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
      seq: 0,
      role: "user",
      content: [{ type: "text", text: '{"script":[{"clock":8000,"perSecond":1000}]}' }],
      status: "complete",
      model_id: null,
      prompt_tokens: null,
      completion_tokens: null,
      created_at: new Date().toISOString(),
    },
    assistant_message_id: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    client_id: null,
  };
}

const turnDone = { type: "turn_done", prompt_tokens: 10, completion_tokens: 0, stop_reason: "end_turn", model: "scripted-1" };

/** The scripted agent's `clock` step, verbatim in its pacing. */
async function run(count: number, perSecond: number | null): Promise<void> {
  publish(turnStart());
  const start = Date.now();
  for (let i = 0; i < count; i++) {
    if (perSecond) {
      const wait = start + (i * 1000) / perSecond - Date.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    } else if (i % 256 === 255) {
      await new Promise((r) => setImmediate(r));
    }
    publish({ type: "text_delta", text: `${i}@${wallClockMs().toFixed(3)}\n` });
  }
  publish(turnDone);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (req.method === "GET" && url.pathname === "/events") {
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    res.socket?.setNoDelay(true);
    res.write(": connected\n\n");
    subscribers.add(res);
    res.on("close", () => subscribers.delete(res));
    return;
  }
  req.resume();
  req.on("end", () => {
    if (req.method === "POST" && url.pathname === "/run") {
      res.writeHead(202).end();
      void run(Number(url.searchParams.get("n")), Number(url.searchParams.get("perSecond")) || null);
    } else if (req.method === "POST" && url.pathname === "/send") {
      publish(turnStart());
      publish(turnDone);
      res.writeHead(202, { "content-type": "application/json" }).end('{"queued":false}');
    } else {
      res.writeHead(404).end();
    }
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on("SIGTERM", () => process.exit(0));

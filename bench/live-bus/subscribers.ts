/**
 * The subscriber side of bench/live-bus, in its own process so the daemon (or the bare
 * server) pays only for writing. Opens N SSE connections, checks every delta's index
 * (lost / reordered) and SSE id (gaps), and measures emit → receive from the wall-clock
 * time the emitter put in the delta text ("<i>@<ms>\n").
 *
 * argv[2] = JSON { url, headers, count }. Prints JSON lines:
 *   {"ready":N}                        all N connections are open
 *   {"turnStart":{at}}                 first subscriber saw turn_start (wall-clock ms)
 *   {"turn":{...}}                     every subscriber saw the turn's terminal event
 */
import http from "node:http";
import { createSseParser, isTerminalEvent } from "@coffer/protocol";

interface Options {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly count: number;
}

const opts = JSON.parse(process.argv[2]!) as Options;
const now = () => performance.timeOrigin + performance.now();

class Tally {
  received = 0;
  lost = 0;
  reordered = 0;
  idGaps = 0;
  firstAt = Number.POSITIVE_INFINITY;
  lastAt = 0;
  latencies: number[] = [];
}

let tally = new Tally();
let alive = opts.count;
let disconnected = 0;
let terminalsSeen = 0;
let turnStartAt = 0;
let turnDoneAt = 0;

function subscriber(index: number): Promise<void> {
  let next = 0;
  let lastSeq: number | null = null;
  // A stamp may arrive in two deltas (the scrubber holds back a tail that could start a secret):
  // it counts when its line is whole.
  let partial = "";
  return new Promise((resolve, reject) => {
    const req = http.get(opts.url, { headers: { accept: "text/event-stream", ...opts.headers }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`subscriber ${index}: ${res.statusCode}`));
      res.setEncoding("utf8");
      const parser = createSseParser((frame) => {
        const at = now();
        const seq = frame.id ? Number(frame.id.slice(frame.id.lastIndexOf("-") + 1)) : null;
        if (seq !== null && lastSeq !== null && seq !== lastSeq + 1) tally.idGaps += 1;
        if (seq !== null) lastSeq = seq;
        const event = JSON.parse(frame.data) as { type: string; text?: string };
        if (event.type === "text_delta") {
          const lines = (partial + event.text!).split("\n");
          partial = lines.pop() ?? "";
          for (const stamp of lines) {
            if (!stamp) continue;
            const sep = stamp.indexOf("@");
            const i = Number(stamp.slice(0, sep));
            if (i > next) tally.lost += i - next;
            if (i < next) tally.reordered += 1;
            else next = i + 1;
            tally.received += 1;
            tally.latencies.push(at - Number(stamp.slice(sep + 1)));
            if (at < tally.firstAt) tally.firstAt = at;
            if (at > tally.lastAt) tally.lastAt = at;
          }
        } else if (event.type === "turn_start") {
          next = 0;
          partial = "";
          if (index === 0) {
            turnStartAt = at;
            process.stdout.write(`${JSON.stringify({ turnStart: { at } })}\n`);
          }
        } else if (isTerminalEvent(event)) {
          if (index === 0) turnDoneAt = at;
          terminalsSeen += 1;
          if (terminalsSeen >= alive) report();
        }
      });
      res.on("data", (chunk: string) => parser.feed(chunk));
      res.on("close", () => {
        if (stopping) return;
        // Cut loose (e.g. too far behind): it will never see this turn end, so stop waiting for it.
        alive -= 1;
        disconnected += 1;
        if (terminalsSeen > 0 && terminalsSeen >= alive) report();
      });
      resolve();
    });
    req.on("error", reject);
  });
}

function report(): void {
  const sorted = Float64Array.from(tally.latencies).sort();
  const pick = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
  const turn = {
    subscribers: opts.count,
    disconnected,
    received: tally.received,
    lost: tally.lost,
    reordered: tally.reordered,
    idGaps: tally.idGaps,
    p50: pick(0.5),
    p99: pick(0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    deltaSpanMs: tally.lastAt - tally.firstAt,
    turnStartAt,
    turnDoneAt,
  };
  process.stdout.write(`${JSON.stringify({ turn })}\n`);
  tally = new Tally();
  terminalsSeen = 0;
}

let stopping = false;
process.on("SIGTERM", () => {
  stopping = true;
  process.exit(0);
});

await Promise.all(Array.from({ length: opts.count }, (_, i) => subscriber(i)));
process.stdout.write(`${JSON.stringify({ ready: opts.count })}\n`);

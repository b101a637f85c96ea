import type { ServerResponse } from "node:http";
import type { BusFrame } from "../application/turns/live-bus.js";
import { RESOURCE_HEADERS } from "./middleware/secure-headers.js";

/** Slow clients are cut loose past this much unsent data; they reconnect with Last-Event-ID. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

const encoded = new WeakMap<BusFrame, string>();

/** A bus frame as SSE text, encoded once however many subscribers receive it. */
export function encodeFrame(frame: BusFrame): string {
  let text = encoded.get(frame);
  if (text === undefined) {
    text = `id: ${frame.cursor}\nevent: ${frame.event.type}\ndata: ${JSON.stringify(frame.event)}\n\n`;
    encoded.set(frame, text);
  }
  return text;
}

export function encodeEvent(event: { type: string }): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * One server-sent-events response written straight to Node's socket: the live bus is
 * the hot path, and this skips web-stream plumbing. Heartbeats let clients detect a
 * dead connection.
 */
export class SseStream {
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeHandlers: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    heartbeatMs: number,
  ) {
    // Written past Hono, so the secure-headers middleware never sees this response: add them here.
    res.writeHead(200, {
      ...RESOURCE_HEADERS,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.socket?.setNoDelay(true);
    res.write(`retry: 1000\n: connected\n\n`);
    this.heartbeat = setInterval(() => this.write(`: heartbeat ${Date.now()}\n\n`), heartbeatMs);
    this.heartbeat.unref();
    res.on("close", () => this.finish());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  write(text: string): void {
    if (this.closed) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.res.destroy();
      return;
    }
    this.res.write(text);
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  end(): void {
    if (this.closed) return;
    this.res.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const h of this.closeHandlers.splice(0)) h();
  }
}

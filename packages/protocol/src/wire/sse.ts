/** One parsed server-sent event. */
export interface SseFrame {
  /** The stream's last event id when this event was dispatched (undefined until the server sets one). */
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental text/event-stream parser following the WHATWG HTML rules for interpreting
 * an event stream: feed it decoded chunks as they arrive; it calls `onFrame` per dispatched
 * event. The last event id persists until the server changes it (a lone `id:` empties it;
 * an id containing NULL is ignored), an event with no data is not dispatched but still sets
 * the id, one leading BOM is skipped, and an event not closed by a blank line is never
 * dispatched. `retry` is ignored: every client here runs its own reconnect backoff.
 * Comments (heartbeats) go to `onComment` so clients can run a liveness timer.
 * See docs/decisions.md (SSE parser).
 */
export function createSseParser(onFrame: (frame: SseFrame) => void, onComment?: (text: string) => void) {
  let buffer = "";
  let started = false;
  let lastId: string | undefined;
  let event = "";
  let data: string[] = [];

  const line = (raw: string) => {
    if (raw === "") {
      if (data.length) onFrame({ id: lastId, event: event || "message", data: data.join("\n") });
      event = "";
      data = [];
      return;
    }
    if (raw.charCodeAt(0) === 58 /* : */) {
      onComment?.(raw.slice(1).trim());
      return;
    }
    const colon = raw.indexOf(":");
    const field = colon === -1 ? raw : raw.slice(0, colon);
    let value = colon === -1 ? "" : raw.slice(colon + 1);
    if (value.charCodeAt(0) === 32 /* space */) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id") {
      if (!value.includes("\0")) lastId = value;
    }
  };

  return {
    feed(chunk: string): void {
      buffer += chunk;
      if (!started) {
        if (buffer === "") return;
        started = true;
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      }
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        if (c === 13 && i + 1 === buffer.length) break; // maybe half of \r\n: wait for more
        line(buffer.slice(start, i));
        if (c === 13 && buffer.charCodeAt(i + 1) === 10) i += 1;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
  };
}

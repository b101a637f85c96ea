/** One parsed server-sent event. */
export interface SseFrame {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental text/event-stream parser (the WHATWG rules we rely on): feed it chunks
 * as they arrive; it calls `onFrame` per complete event. Comments (heartbeats) are
 * reported to `onComment` so clients can run a liveness timer.
 */
export function createSseParser(onFrame: (frame: SseFrame) => void, onComment?: (text: string) => void) {
  let buffer = "";
  let id: string | undefined;
  let event = "";
  let data: string[] = [];

  const line = (raw: string) => {
    if (raw === "") {
      if (data.length) onFrame({ id, event: event || "message", data: data.join("\n") });
      event = "";
      data = [];
      id = undefined;
      return;
    }
    if (raw.startsWith(":")) {
      onComment?.(raw.slice(1).trim());
      return;
    }
    const colon = raw.indexOf(":");
    const field = colon === -1 ? raw : raw.slice(0, colon);
    let value = colon === -1 ? "" : raw.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id") id = value;
  };

  return {
    feed(chunk: string): void {
      buffer += chunk;
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

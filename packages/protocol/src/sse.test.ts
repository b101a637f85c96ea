import { expect, test } from "vitest";
import { createSseParser, type SseFrame } from "./sse.js";

test("frames split across chunks, CRLF, comments and multi-line data", () => {
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  const p = createSseParser((f) => frames.push(f), (c) => comments.push(c));
  const stream = "retry: 1000\n: connected\n\nid: e-1\nevent: text_delta\ndata: {\"a\":\r\ndata: 1}\r\n\r\n: heartbeat\n\nid: e-2\ndata: x\n\n";
  for (const ch of stream) p.feed(ch);
  expect(frames).toEqual([
    { id: "e-1", event: "text_delta", data: '{"a":\n1}' },
    { id: "e-2", event: "message", data: "x" },
  ]);
  expect(comments).toEqual(["connected", "heartbeat"]);
});

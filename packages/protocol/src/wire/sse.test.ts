import { expect, test } from "vitest";
import { createSseParser, type SseFrame } from "./sse.js";

function parse(...chunks: string[]): { frames: SseFrame[]; comments: string[] } {
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  const p = createSseParser((f) => frames.push(f), (c) => comments.push(c));
  for (const chunk of chunks) p.feed(chunk);
  return { frames, comments };
}

test("frames split across chunks, CRLF, comments and multi-line data", () => {
  const stream = "retry: 1000\n: connected\n\nid: e-1\nevent: text_delta\ndata: {\"a\":\r\ndata: 1}\r\n\r\n: heartbeat\n\nid: e-2\ndata: x\n\n";
  const { frames, comments } = parse(...stream);
  expect(frames).toEqual([
    { id: "e-1", event: "text_delta", data: '{"a":\n1}' },
    { id: "e-2", event: "message", data: "x" },
  ]);
  expect(comments).toEqual(["connected", "heartbeat"]);
});

// The cases below are the WHATWG HTML "Interpreting an event stream" rules (§9.2.6).
test("the last event id persists across events until the stream changes it", () => {
  const { frames } = parse("id: 7\ndata: a\n\ndata: b\n\nid: 8\ndata: c\n\ndata: d\n\n");
  expect(frames.map((f) => [f.id, f.data])).toEqual([
    ["7", "a"],
    ["7", "b"],
    ["8", "c"],
    ["8", "d"],
  ]);
});

test("an id field containing NULL is ignored; a lone `id` or `id:` resets it to empty", () => {
  const { frames } = parse("id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\nid:\ndata: c\n\nid: 4\ndata: d\n\nid\ndata: e\n\n");
  expect(frames.map((f) => [f.id, f.data])).toEqual([
    ["1", "a"],
    ["1", "b"],
    ["", "c"],
    ["4", "d"],
    ["", "e"],
  ]);
});

test("an event with no data is not dispatched, but its id still becomes the last event id", () => {
  const { frames } = parse("id: 5\nevent: ping\n\ndata: after\n\n");
  expect(frames).toEqual([{ id: "5", event: "message", data: "after" }]);
});

test("no id yet: frames carry undefined", () => {
  expect(parse("data: x\n\n").frames).toEqual([{ id: undefined, event: "message", data: "x" }]);
});

test("CR, LF and CRLF all end lines, also when a CRLF is split across chunks", () => {
  const { frames } = parse("data: a\rdata: b\r\rdata: c\ndata: d\n\ndata: e\r", "\ndata: f\r\n\r\n");
  expect(frames.map((f) => f.data)).toEqual(["a\nb", "c\nd", "e\nf"]);
});

test("one leading BOM is skipped, a second one is not", () => {
  const { frames } = parse("\uFEFF", "data: a\n\n\uFEFFdata: b\n\ndata: c\n\n");
  expect(frames.map((f) => f.data)).toEqual(["a", "c"]);
});

test("a final event without the blank line after it is not dispatched", () => {
  const { frames } = parse("data: a\n\ndata: b\n");
  expect(frames.map((f) => f.data)).toEqual(["a"]);
});

test("data lines join with LF; a bare `data` adds an empty line; only one space after the colon is dropped", () => {
  const { frames } = parse("data\n\ndata:  two spaces\ndata\ndata:x\n\n");
  expect(frames.map((f) => f.data)).toEqual(["", " two spaces\n\nx"]);
});

test("retry, unknown fields and comments dispatch nothing and leave the event intact", () => {
  const { frames, comments } = parse("retry: 3000\nretry: soon\nfoo: bar\n: note\nevent: x\ndata: 1\nretry: 10\n\n");
  expect(frames).toEqual([{ id: undefined, event: "x", data: "1" }]);
  expect(comments).toEqual(["note"]);
});

test("the event type resets after each dispatch", () => {
  const { frames } = parse("event: a\ndata: 1\n\ndata: 2\n\n");
  expect(frames.map((f) => f.event)).toEqual(["a", "message"]);
});

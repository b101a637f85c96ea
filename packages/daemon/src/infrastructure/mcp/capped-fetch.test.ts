import { describe, expect, test } from "vitest";
import { capBody, UpstreamAnswerTooLarge } from "./capped-fetch.js";

const enc = new TextEncoder();

function response(chunks: string[], type: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": type } });
}

describe("an upstream answer's byte cap", () => {
  test("a JSON answer is capped as a whole", async () => {
    await expect(capBody(response(["x".repeat(60), "x".repeat(60)], "application/json"), 100).text()).rejects.toBeInstanceOf(UpstreamAnswerTooLarge);
    expect(await capBody(response(["x".repeat(60), "x".repeat(40)], "application/json"), 100).text()).toHaveLength(100);
  });

  test("an event stream is capped per event, so a long-lived stream of small events goes on", async () => {
    const events = Array.from({ length: 50 }, (_, i) => `data: ${"y".repeat(40)}${i}\n\n`);
    expect(await capBody(response(events, "text/event-stream"), 100).text()).toContain("y49");
    const crlf = Array.from({ length: 50 }, () => `data: ${"y".repeat(40)}\r\n\r\n`);
    expect((await capBody(response(crlf, "text/event-stream"), 100).text()).length).toBeGreaterThan(100);
    await expect(capBody(response(["data: ", "z".repeat(80), "z".repeat(80), "\n\n"], "text/event-stream"), 100).text()).rejects.toBeInstanceOf(
      UpstreamAnswerTooLarge,
    );
  });
});

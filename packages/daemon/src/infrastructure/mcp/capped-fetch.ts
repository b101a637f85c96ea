/**
 * The most one upstream answer may hold: a JSON answer whole, or one event of an event
 * stream (a stream may live for hours; each event is one JSON-RPC message). Past it the
 * answer is cut and the call fails, so a hostile or broken server cannot make the daemon read
 * hundreds of megabytes into memory (docs/decisions.md, "Hardening II: daemon resources").
 */
export const UPSTREAM_ANSWER_MAX_BYTES = 10 * 1024 * 1024;

/** Why an upstream's answer was cut: the gateway shows this message to the agent and the log. */
export class UpstreamAnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the server's answer was larger than ${Math.round(limit / (1024 * 1024))} MB and was cut`);
    this.name = "UpstreamAnswerTooLarge";
  }
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

const LF = 0x0a;

/** Bytes after the last blank line ("\n\n", or "\n\r\n") in `chunk`, or -1 when it has none. */
function bytesAfterLastEventEnd(chunk: Uint8Array): number {
  for (let i = chunk.length - 1; i > 0; i -= 1) {
    if (chunk[i] !== LF) continue;
    const prev = chunk[i - 1] === 0x0d ? i - 2 : i - 1;
    if (prev >= 0 && chunk[prev] === LF) return chunk.length - 1 - i;
  }
  return -1;
}

/** The response with its body counted as it is read, and errored (the socket closed) past `limit`. */
export function capBody(response: Response, limit: number): Response {
  if (!response.body) return response;
  const perEvent = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  let counted = 0;
  const source = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.read();
      if (done) return controller.close();
      const tail = perEvent ? bytesAfterLastEventEnd(value) : -1;
      counted = tail >= 0 ? tail : counted + value.byteLength;
      if (counted > limit) {
        const error = new UpstreamAnswerTooLarge(limit);
        await source.cancel(error).catch(() => undefined);
        return controller.error(error);
      }
      controller.enqueue(value);
    },
    cancel: (reason) => source.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A `fetch` for the MCP SDK's HTTP transport whose answers are capped at `limit` bytes. */
export function cappedFetch(limit = UPSTREAM_ANSWER_MAX_BYTES, inner: Fetch = fetch): Fetch {
  return async (url, init) => capBody(await inner(url, init), limit);
}

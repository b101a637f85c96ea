import { randomUUID } from "node:crypto";
import type http from "node:http";

interface Usage {
  readonly input_tokens: number;
  readonly output_tokens: number;
}

/** One streamed Messages API reply, event for event as the real API sends it. */
export class SseReply {
  private readonly id = `msg_fake_${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly res: http.ServerResponse,
    private readonly model: string,
    private readonly usage: Usage,
  ) {}

  text(chunks: readonly string[]): void {
    this.start();
    this.send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    this.endText(chunks);
  }

  toolUse(name: string, input: Record<string, unknown>): void {
    this.start();
    this.callTool(name, input);
  }

  /** Starts the reply, says nothing until `hold` settles, then makes the tool call (if the client is still there). */
  toolUseAfter(hold: Promise<void>, name: string, input: Record<string, unknown>): void {
    this.start();
    void hold.then(() => {
      if (!this.res.destroyed && !this.res.writableEnded) this.callTool(name, input);
    });
  }

  /** The tool_use block, its input in one delta, and the end of the reply. */
  private callTool(name: string, input: Record<string, unknown>): void {
    const id = `toolu_fake_${randomUUID().slice(0, 8)}`;
    this.send("content_block_start", { index: 0, content_block: { type: "tool_use", id, name, input: {} } });
    this.send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(input) } });
    this.send("content_block_stop", { index: 0 });
    this.finish("tool_use");
  }

  /** Streams `chunks` and then keeps the response open until the client closes it. */
  holdAfter(chunks: readonly string[]): void {
    this.start();
    if (chunks.length === 0) return;
    this.send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    for (const text of chunks) this.send("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
  }

  /** Ends a reply `holdAfter` left open (if the client is still there). */
  resume(chunks: readonly string[]): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    this.endText(chunks);
  }

  /** The rest of an open text block: its deltas, its end and the end of the reply. */
  private endText(chunks: readonly string[]): void {
    for (const text of chunks) this.send("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
    this.send("content_block_stop", { index: 0 });
    this.finish("end_turn");
  }

  private start(): void {
    this.res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": `req_${this.id}` });
    this.send("message_start", {
      message: {
        id: this.id,
        type: "message",
        role: "assistant",
        model: this.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: this.usage.input_tokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    });
  }

  private finish(stopReason: string): void {
    this.send("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: this.usage.output_tokens } });
    this.send("message_stop", {});
    this.res.end();
  }

  private send(type: string, data: Record<string, unknown>): void {
    this.res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  }
}

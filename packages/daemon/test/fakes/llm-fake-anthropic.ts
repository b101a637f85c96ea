/**
 * A fake Anthropic API (non-streaming Messages and the model listing) on 127.0.0.1, for
 * list-models, test-connection and coffer__ask through @anthropic-ai/sdk and @ai-sdk/anthropic.
 * (fake-anthropic.ts is the streaming one the real `claude` CLI talks to.)
 */
import { FakeLlmServer, textOf, type FakeLlmOptions, type FakeLlmRequest, type WireHandler } from "./llm-fake-server.js";

const anthropicWire: WireHandler = {
  // The AI SDK sends x-api-key; @anthropic-ai/sdk 1.x sends the key as a bearer token. The API takes both.
  key: (req) =>
    (req.headers["x-api-key"] as string | undefined) ?? /^Bearer (.+)$/.exec((req.headers.authorization as string | undefined) ?? "")?.[1] ?? null,
  unauthorized: () => ({ status: 401, body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } } }),
  route(req: FakeLlmRequest, fake: FakeLlmServer) {
    if (req.method === "GET" && req.path === "/v1/models") {
      const data = fake.models.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-01-01T00:00:00Z" }));
      return { status: 200, body: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null } };
    }
    if (req.method === "POST" && req.path === "/v1/messages") {
      const body = req.body;
      if (!fake.chatAllowed(body.model)) {
        return { status: 404, body: { type: "error", error: { type: "not_found_error", message: `model: ${body.model}` } } };
      }
      const messages: any[] = body.messages ?? [];
      const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [{ type: "text", text: m.content }]).map((b: any) => ({ role: m.role, b })));
      const reply = fake.answer({
        model: body.model,
        system: textOf(body.system),
        userText: blocks.filter((x) => x.role === "user" && x.b.type === "text").map((x) => x.b.text).join("\n"),
        toolNames: (body.tools ?? []).map((t: any) => t.name),
        toolResults: blocks.filter((x) => x.b.type === "tool_result").map((x) => textOf(x.b.content)),
      });
      const content = "text" in reply
        ? [{ type: "text", text: reply.text }]
        : [{ type: "tool_use", id: `toolu_${fake.chats.length}`, name: reply.toolCall.name, input: reply.toolCall.input }];
      return {
        status: 200,
        body: {
          id: `msg_${fake.chats.length}`,
          type: "message",
          role: "assistant",
          model: body.model,
          content,
          stop_reason: "text" in reply ? "end_turn" : "tool_use",
          stop_sequence: null,
          usage: { input_tokens: 12, output_tokens: 3 },
        },
      };
    }
    return null;
  },
};

export class FakeAnthropicLlm extends FakeLlmServer {
  static async start(options: FakeLlmOptions = {}): Promise<FakeAnthropicLlm> {
    const fake = new FakeAnthropicLlm({ apiKey: "sk-ant-fake", ...options }, anthropicWire);
    await fake.listen();
    return fake;
  }

  /** What a connection's base_url is for this wire: the API root. */
  get baseUrl(): string {
    return this.origin;
  }
}

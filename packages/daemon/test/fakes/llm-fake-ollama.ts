/**
 * A fake Ollama server (native /api/tags and non-streaming /api/chat) on 127.0.0.1, for the
 * `ollama` client and ollama-ai-provider-v2. No key by default, as a local Ollama.
 */
import { chatOfMessages, FakeLlmServer, type FakeLlmOptions, type FakeLlmRequest, type WireHandler } from "./llm-fake-server.js";

const ollamaWire: WireHandler = {
  key: (req) => /^Bearer (.+)$/i.exec((req.headers.authorization as string | undefined) ?? "")?.[1] ?? null,
  unauthorized: () => ({ status: 401, body: { error: "unauthorized" } }),
  route(req: FakeLlmRequest, fake: FakeLlmServer) {
    if (req.method === "GET" && req.path === "/api/tags") {
      const models = fake.models.map((name) => ({
        name,
        model: name,
        modified_at: "2026-01-01T00:00:00Z",
        size: 1,
        digest: "0",
        details: { format: "gguf", family: "fake", families: ["fake"], parameter_size: "1B", quantization_level: "Q4_0" },
      }));
      return { status: 200, body: { models } };
    }
    if (req.method === "POST" && req.path === "/api/chat") {
      const body = req.body;
      if (!fake.chatAllowed(body.model)) return { status: 404, body: { error: `model "${body.model}" not found, try pulling it first` } };
      const reply = fake.answer(chatOfMessages(body));
      const message = "text" in reply
        ? { role: "assistant", content: reply.text }
        : { role: "assistant", content: "", tool_calls: [{ function: { name: reply.toolCall.name, arguments: reply.toolCall.input } }] };
      return {
        status: 200,
        body: {
          model: body.model,
          created_at: "2026-01-01T00:00:00Z",
          message,
          done: true,
          done_reason: "stop",
          total_duration: 1,
          load_duration: 1,
          prompt_eval_count: 12,
          prompt_eval_duration: 1,
          eval_count: 3,
          eval_duration: 1,
        },
      };
    }
    return null;
  },
};

export class FakeOllamaLlm extends FakeLlmServer {
  static async start(options: FakeLlmOptions = {}): Promise<FakeOllamaLlm> {
    const fake = new FakeOllamaLlm({ apiKey: null, ...options }, ollamaWire);
    await fake.listen();
    return fake;
  }

  /** What a connection's base_url is for this wire: the server root. */
  get baseUrl(): string {
    return this.origin;
  }
}

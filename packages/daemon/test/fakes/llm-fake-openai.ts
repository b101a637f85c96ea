/**
 * A fake OpenAI API (non-streaming Chat Completions and the model listing) on 127.0.0.1, for
 * the `openai` client and @ai-sdk/openai. Like the real API, a bad key's 401 names the key it
 * was given — so the secret scan proves Coffer never passes provider text through unredacted.
 * (fake-openai-responses.ts is the Responses-API one the real `codex` binary talks to.)
 */
import { chatOfMessages, FakeLlmServer, type FakeLlmOptions, type FakeLlmRequest, type WireHandler } from "./llm-fake-server.js";

const openaiWire: WireHandler = {
  key: (req) => /^Bearer (.+)$/.exec((req.headers.authorization as string | undefined) ?? "")?.[1] ?? null,
  unauthorized: (key) => ({
    status: 401,
    body: { error: { message: `Incorrect API key provided: ${key}.`, type: "invalid_request_error", param: null, code: "invalid_api_key" } },
  }),
  route(req: FakeLlmRequest, fake: FakeLlmServer) {
    if (req.method === "GET" && req.path === "/v1/models") {
      return { status: 200, body: { object: "list", data: fake.models.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "fake" })) } };
    }
    if (req.method === "POST" && req.path === "/v1/chat/completions") {
      const body = req.body;
      if (!fake.chatAllowed(body.model)) {
        return {
          status: 404,
          body: { error: { message: `The model \`${body.model}\` does not exist or you do not have access to it.`, type: "invalid_request_error", code: "model_not_found" } },
        };
      }
      const reply = fake.answer(chatOfMessages(body));
      const message = "text" in reply
        ? { role: "assistant", content: reply.text }
        : {
            role: "assistant",
            content: null,
            tool_calls: [{ id: `call_${fake.chats.length}`, type: "function", function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.input) } }],
          };
      return {
        status: 200,
        body: {
          id: `chatcmpl-${fake.chats.length}`,
          object: "chat.completion",
          created: 1_700_000_000,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
          usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
        },
      };
    }
    return null;
  },
};

export class FakeOpenAiLlm extends FakeLlmServer {
  static async start(options: FakeLlmOptions = {}): Promise<FakeOpenAiLlm> {
    const fake = new FakeOpenAiLlm({ apiKey: "sk-openai-fake", ...options }, openaiWire);
    await fake.listen();
    return fake;
  }

  /** What a connection's base_url is for this wire: the root with /v1. */
  get baseUrl(): string {
    return `${this.origin}/v1`;
  }
}

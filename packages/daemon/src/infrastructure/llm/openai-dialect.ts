import type OpenAI from "openai";
import type { LlmEndpoint } from "../../application/connections/ports.js";
import type { CallOptions, Dialect } from "./dialect.js";

/**
 * Base URLs include the version segment (https://api.openai.com/v1), as the OpenAI clients
 * expect. Clients load on first use: the daemon must not pay their import at start-up.
 */
async function client(endpoint: LlmEndpoint, options: CallOptions): Promise<OpenAI> {
  const { default: OpenAI } = await import("openai");
  return new OpenAI({ apiKey: endpoint.apiKey ?? "", baseURL: endpoint.baseUrl, maxRetries: 0, timeout: options.timeoutMs });
}

export const openaiDialect: Dialect = {
  async load() {
    await import("openai");
  },

  async listModels(endpoint, options) {
    const ids: string[] = [];
    for await (const model of (await client(endpoint, options)).models.list({ signal: options.signal })) ids.push(model.id);
    return ids;
  },

  async ping(endpoint, model, options) {
    await (await client(endpoint, options)).chat.completions.create(
      { model, max_completion_tokens: 1, messages: [{ role: "user", content: "ping" }] },
      { signal: options.signal },
    );
  },

  // Chat Completions rather than Responses: OpenAI-compatible servers speak it too.
  async languageModel(endpoint, model) {
    const { createOpenAI } = await import("@ai-sdk/openai");
    return createOpenAI({ apiKey: endpoint.apiKey ?? "", baseURL: endpoint.baseUrl }).chat(model);
  },
};

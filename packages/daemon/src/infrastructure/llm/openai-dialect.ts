import { createOpenAI } from "@ai-sdk/openai";
import OpenAI from "openai";
import type { LlmEndpoint } from "../../application/connections/ports.js";
import type { CallOptions, Dialect } from "./dialect.js";

/** Base URLs include the version segment (https://api.openai.com/v1), as the OpenAI clients expect. */
function client(endpoint: LlmEndpoint, options: CallOptions): OpenAI {
  return new OpenAI({ apiKey: endpoint.apiKey ?? "", baseURL: endpoint.baseUrl, maxRetries: 0, timeout: options.timeoutMs });
}

export const openaiDialect: Dialect = {
  async listModels(endpoint, options) {
    const ids: string[] = [];
    for await (const model of client(endpoint, options).models.list({ signal: options.signal })) ids.push(model.id);
    return ids;
  },

  async ping(endpoint, model, options) {
    await client(endpoint, options).chat.completions.create(
      { model, max_completion_tokens: 1, messages: [{ role: "user", content: "ping" }] },
      { signal: options.signal },
    );
  },

  // Chat Completions rather than Responses: OpenAI-compatible servers speak it too.
  languageModel(endpoint, model) {
    return createOpenAI({ apiKey: endpoint.apiKey ?? "", baseURL: endpoint.baseUrl }).chat(model);
  },
};

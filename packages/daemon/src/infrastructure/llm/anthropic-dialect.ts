import type Anthropic from "@anthropic-ai/sdk";
import type { LlmEndpoint } from "../../application/connections/ports.js";
import type { CallOptions, Dialect } from "./dialect.js";

/**
 * Base URLs are stored as the API root (https://api.anthropic.com), as ANTHROPIC_BASE_URL is.
 * Clients load on first use: the daemon must not pay their import at start-up.
 */
async function client(endpoint: LlmEndpoint, options: CallOptions): Promise<Anthropic> {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  return new Anthropic({ apiKey: endpoint.apiKey ?? "", baseURL: endpoint.baseUrl, maxRetries: 0, timeout: options.timeoutMs });
}

export const anthropicDialect: Dialect = {
  async load() {
    await import("@anthropic-ai/sdk");
  },

  async listModels(endpoint, options) {
    const ids: string[] = [];
    for await (const model of (await client(endpoint, options)).models.list({ limit: 1000 }, { signal: options.signal })) ids.push(model.id);
    return ids;
  },

  async ping(endpoint, model, options) {
    await (await client(endpoint, options)).messages.create(
      { model, max_tokens: 1, messages: [{ role: "user", content: "ping" }] },
      { signal: options.signal },
    );
  },

  async languageModel(endpoint, model) {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    return createAnthropic({ apiKey: endpoint.apiKey ?? "", baseURL: `${endpoint.baseUrl}/v1` })(model);
  },
};

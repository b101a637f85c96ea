import type { Ollama } from "ollama";
import type { LlmEndpoint } from "../../application/connections/ports.js";
import type { CallOptions, Dialect } from "./dialect.js";

/** Ollama needs no key; one behind an authenticating proxy gets it as a bearer token. */
function headers(endpoint: LlmEndpoint): Record<string, string> | undefined {
  return endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : undefined;
}

/**
 * The client has no timeout option: every fetch it makes carries the call's deadline.
 * It loads on first use: the daemon must not pay its import at start-up.
 */
async function client(endpoint: LlmEndpoint, options: CallOptions): Promise<Ollama> {
  const { Ollama } = await import("ollama");
  const { signal } = options;
  return new Ollama({
    host: endpoint.baseUrl,
    headers: headers(endpoint),
    fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal }),
  });
}

/** Base URLs are the server root (http://127.0.0.1:11434); the native API lives under /api. */
export const ollamaDialect: Dialect = {
  async load() {
    await import("ollama");
  },

  async listModels(endpoint, options) {
    const { models } = await (await client(endpoint, options)).list();
    return models.map((m) => m.model || m.name);
  },

  async ping(endpoint, model, options) {
    await (await client(endpoint, options)).chat({ model, stream: false, messages: [{ role: "user", content: "ping" }], options: { num_predict: 1 } });
  },

  async languageModel(endpoint, model) {
    const { createOllama } = await import("ollama-ai-provider-v2");
    return createOllama({ baseURL: `${endpoint.baseUrl}/api`, headers: headers(endpoint) })(model);
  },
};

import type { ProviderKind } from "../../application/connections/ports.js";
import { anthropicDialect } from "./anthropic-dialect.js";
import type { Dialect } from "./dialect.js";
import { ollamaDialect } from "./ollama-dialect.js";
import { openaiDialect } from "./openai-dialect.js";

export interface ProviderKindDefinition extends ProviderKind {
  readonly dialect: Dialect;
}

/**
 * The table of LLM provider kinds (the API contract still calls each a "wire": see
 * docs/decisions.md). Another provider that speaks one of these dialects — an
 * OpenAI-compatible gateway, LM Studio, a second Ollama host — is one more row here.
 */
export const PROVIDER_KINDS: readonly ProviderKindDefinition[] = [
  { kind: "anthropic", displayName: "Anthropic", needsCredential: true, defaultBaseUrl: "https://api.anthropic.com", dialect: anthropicDialect },
  { kind: "openai", displayName: "OpenAI", needsCredential: true, defaultBaseUrl: "https://api.openai.com/v1", dialect: openaiDialect },
  { kind: "ollama", displayName: "Ollama", needsCredential: false, defaultBaseUrl: "http://127.0.0.1:11434", dialect: ollamaDialect },
];

import type { WireInfo } from "../../application/connections/ports.js";
import { anthropicDialect } from "./anthropic-dialect.js";
import type { Dialect } from "./dialect.js";
import { ollamaDialect } from "./ollama-dialect.js";
import { openaiDialect } from "./openai-dialect.js";

export interface WireDefinition extends WireInfo {
  readonly dialect: Dialect;
}

/**
 * The table of wires (FR-023). Another provider that speaks one of these dialects — an
 * OpenAI-compatible gateway, LM Studio, a second Ollama host — is one more row here.
 */
export const WIRES: readonly WireDefinition[] = [
  { wire: "anthropic", displayName: "Anthropic", needsCredential: true, defaultBaseUrl: "https://api.anthropic.com", dialect: anthropicDialect },
  { wire: "openai", displayName: "OpenAI", needsCredential: true, defaultBaseUrl: "https://api.openai.com/v1", dialect: openaiDialect },
  { wire: "ollama", displayName: "Ollama", needsCredential: false, defaultBaseUrl: "http://127.0.0.1:11434", dialect: ollamaDialect },
];

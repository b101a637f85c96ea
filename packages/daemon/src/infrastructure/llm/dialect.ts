import type { LanguageModel } from "ai";
import type { LlmEndpoint } from "../../application/connections/ports.js";

export interface CallOptions {
  readonly timeoutMs: number;
  /** Aborts at the call's deadline (or when the caller gives up). */
  readonly signal: AbortSignal;
}

/**
 * How one family of provider APIs is spoken, through its official client. Provider kinds
 * (provider-kinds.ts) pick a dialect; a new kind that speaks an existing dialect is one row,
 * not new code.
 */
export interface Dialect {
  listModels(endpoint: LlmEndpoint, options: CallOptions): Promise<string[]>;
  /** The smallest real request for `model` (one output token). Throws the client's error. */
  ping(endpoint: LlmEndpoint, model: string, options: CallOptions): Promise<void>;
  /** The same endpoint as an AI SDK model, for the agentic loop. */
  languageModel(endpoint: LlmEndpoint, model: string): Promise<LanguageModel>;
}

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
  /**
   * Imports the official client (cached after the first call). The caller awaits it before
   * starting a call's deadline: loading a client costs 0.3–0.9 s here, and an owner's timeout
   * is about the provider, not our import (docs/decisions.md, "Heavy SDKs load on first use").
   */
  load(): Promise<void>;
  listModels(endpoint: LlmEndpoint, options: CallOptions): Promise<string[]>;
  /** The smallest real request for `model` (one output token). Throws the client's error. */
  ping(endpoint: LlmEndpoint, model: string, options: CallOptions): Promise<void>;
  /** The same endpoint as an AI SDK model, for the agentic loop. */
  languageModel(endpoint: LlmEndpoint, model: string): Promise<LanguageModel>;
}

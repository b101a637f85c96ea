import type { FailureKind } from "@coffer/protocol";

/**
 * One LLM provider kind (anthropic, openai, ollama): a row of infrastructure/llm/provider-kinds.ts.
 * The API contract names it `wire` (docs/decisions.md).
 */
export interface ProviderKind {
  readonly kind: string;
  readonly displayName: string;
  readonly needsCredential: boolean;
  readonly defaultBaseUrl: string;
}

/** Where and how to call a provider; `apiKey` is the resolved secret, held in memory only. */
export interface LlmEndpoint {
  readonly providerKind: string;
  readonly baseUrl: string;
  readonly apiKey: string | null;
}

/** What went wrong, classified by the provider's client; the words are chosen in failure-messages.ts. */
export interface LlmFailure {
  readonly kind: FailureKind;
  readonly status?: number;
  /** The provider's own words, when it sent any (callers redact secrets before showing them). */
  readonly providerMessage?: string;
}

export type LlmResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: LlmFailure };

/** The LLM providers, through their official clients. Never throws: failures are results. */
export interface LlmProviders {
  providerKinds(): readonly ProviderKind[];
  listModels(endpoint: LlmEndpoint, signal?: AbortSignal): Promise<LlmResult<string[]>>;
  /** The smallest real request that proves key, URL and model work together. */
  ping(endpoint: LlmEndpoint, model: string, signal?: AbortSignal): Promise<LlmResult<void>>;
  /** How long a call may take before it fails as `timeout`. */
  readonly timeoutMs: number;
}

/**
 * A connection as stored: the row's columns, named as the API names them (times in epoch ms).
 * The store hands it back as it reads it and the service turns it into the wire shape once
 * (docs/decisions.md, "Each record mapped once").
 */
export interface Connection {
  readonly id: string;
  readonly name: string;
  /** The provider kind (anthropic, openai, ollama). */
  readonly wire: string;
  readonly base_url: string | null;
  readonly model: string;
  readonly credential_ref: string | null;
  readonly internal_default: boolean;
  readonly created_at: number;
  readonly updated_at: number;
}

export interface ConnectionStore {
  transaction<T>(fn: () => T): T;
  list(): Connection[];
  get(id: string): Connection | null;
  findByName(name: string): Connection | null;
  internalDefault(): Connection | null;
  insert(c: Connection): void;
  update(c: Connection): void;
  delete(id: string): boolean;
  /** Clears the flag everywhere, then sets it on `id` (when given). */
  setInternalDefault(id: string | null, now: number): void;
}

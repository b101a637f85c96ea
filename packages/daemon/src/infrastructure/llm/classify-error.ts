import type { LlmFailure } from "../../application/connections/ports.js";

const MAX_PROVIDER_MESSAGE = 300;

/**
 * Any error from the official clients (Anthropic / OpenAI APIError, Ollama ResponseError) or
 * the AI SDK (APICallError, RetryError) → a failure kind. Walks `cause`/`lastError` because
 * fetch hides the socket error (ECONNREFUSED) one or two levels down.
 */
export function classifyError(err: unknown): LlmFailure {
  const chain = causes(err);
  for (const e of chain) {
    const status = statusOf(e);
    if (status !== undefined) return fromStatus(status, providerMessage(e));
  }
  for (const e of chain) {
    const code = typeof e.code === "string" ? e.code : "";
    const name = typeof e.name === "string" ? e.name : "";
    if (code === "ECONNREFUSED") return { kind: "refused" };
    if (name === "TimeoutError" || name === "APIConnectionTimeoutError" || code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT") {
      return { kind: "timeout" };
    }
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return { kind: "unexpected", providerMessage: "the host name does not resolve" };
    // fetch refuses some ports outright (1, 25, 6000…) before connecting.
    if (e.message === "bad port") return { kind: "unexpected", providerMessage: "that port is blocked for HTTP requests; use another one" };
  }
  if (chain.some((e) => e.name === "AbortError" || e.name === "APIUserAbortError")) return { kind: "timeout" };
  const first = chain[0];
  return { kind: "unexpected", providerMessage: first ? clip(String(first.message ?? first)) : undefined };
}

type Loose = Record<string, unknown> & { message?: unknown; name?: unknown; code?: unknown };

function causes(err: unknown): Loose[] {
  const out: Loose[] = [];
  let current: unknown = err;
  for (let depth = 0; current && typeof current === "object" && depth < 8; depth += 1) {
    const e = current as Loose;
    out.push(e);
    if (Array.isArray(e.errors)) out.push(...(e.errors.filter((x) => x && typeof x === "object") as Loose[]));
    current = e.lastError ?? e.cause;
  }
  return out;
}

function statusOf(e: Loose): number | undefined {
  for (const key of ["status", "statusCode", "status_code"]) {
    const v = e[key];
    if (typeof v === "number" && v >= 400) return v;
  }
  return undefined;
}

function fromStatus(status: number, message: string | undefined): LlmFailure {
  if (status === 401 || status === 403) return { kind: "auth", status };
  if (status === 404) return { kind: "not_found", status, providerMessage: message };
  if (status === 408) return { kind: "timeout", status };
  if (status === 429) return { kind: "rate_limited", status };
  if (status >= 500) return { kind: "provider_error", status, providerMessage: message };
  return { kind: "bad_request", status, providerMessage: message };
}

function providerMessage(e: Loose): string | undefined {
  // The provider's own words, without the client's "404 " prefix; callers redact secrets.
  const raw = typeof e.message === "string" ? e.message.replace(/^\d{3}\s+/, "") : undefined;
  return raw ? clip(raw) : undefined;
}

function clip(text: string): string {
  return text.length > MAX_PROVIDER_MESSAGE ? `${text.slice(0, MAX_PROVIDER_MESSAGE - 1)}…` : text;
}

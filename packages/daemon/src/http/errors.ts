import type { ErrorEnvelope } from "@coffer/protocol";
import { DomainError } from "../domain/errors.js";

/** A client mistake caught at the HTTP edge (before any use case runs). */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

const DOMAIN_STATUS: Record<string, 400 | 404 | 409 | 422 | 503 | 507> = {
  CONVERSATION_NOT_FOUND: 404,
  UNKNOWN_AGENT: 400,
  AGENT_CONFIG_REJECTED: 400,
  CURSOR_INVALID: 400,
  AGENT_UNAVAILABLE: 409,
  TURN_IN_PROGRESS: 409,
  QUEUE_FULL: 409,
  SKILL_NOT_FOUND: 404,
  SKILL_INVALID: 409,
  MEMORY_NOT_FOUND: 404,
  KNOWLEDGE_BASE_NOT_FOUND: 404,
  KNOWLEDGE_BASE_EXISTS: 409,
  DOCUMENT_NOT_FOUND: 404,
  IMPORT_NOT_FOUND: 404,
  IMPORT_PATH_INVALID: 422,
  MCP_SERVER_NOT_FOUND: 404,
  MCP_SERVER_EXISTS: 409,
  VALIDATION_FAILED: 422,
  CREDENTIAL_NOT_FOUND: 404,
  CREDENTIAL_UNREADABLE: 409,
  // The daemon cannot serve credentials until the owner acts (README, "Recovering credentials").
  CREDENTIALS_KEY_CORRUPT: 503,
  STORAGE_FULL: 507,
  CONNECTION_NOT_FOUND: 404,
  CONNECTION_NAME_TAKEN: 409,
};

export function envelope(code: string, message: string, details: Record<string, unknown> | null = null): ErrorEnvelope {
  return { error: { code, message, details } };
}

/** The one place an error becomes a status and an envelope. Unknown errors never leak a stack. */
export function toHttpError(err: unknown): { status: number; body: ErrorEnvelope; unexpected: boolean } {
  if (err instanceof ApiError) return { status: err.status, body: envelope(err.code, err.message, err.details), unexpected: false };
  if (err instanceof DomainError) {
    return { status: DOMAIN_STATUS[err.code] ?? 400, body: envelope(err.code, err.message, err.details), unexpected: false };
  }
  return { status: 500, body: envelope("INTERNAL_ERROR", "the daemon hit an unexpected error; see its log"), unexpected: true };
}

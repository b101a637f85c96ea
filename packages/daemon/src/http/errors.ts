import { httpStatusOf, type ErrorCode, type ErrorEnvelope, type ErrorStatus } from "@coffer/protocol";
import { DomainError } from "../domain/errors.js";

/** A client mistake caught at the HTTP edge (before any use case runs). Its status is its code's. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.status = httpStatusOf(code);
  }
}

export function envelope(code: ErrorCode, message: string, details: Record<string, unknown> | null = null): ErrorEnvelope {
  return { error: { code, message, details } };
}

/**
 * The one place an error becomes a status and an envelope; the status comes from protocol's
 * catalogue (a code's kind), so no code can fall through to a guessed one. Unknown errors never
 * leak a stack.
 */
export function toHttpError(err: unknown): { status: ErrorStatus; body: ErrorEnvelope; unexpected: boolean } {
  if (err instanceof ApiError || err instanceof DomainError) {
    return { status: httpStatusOf(err.code), body: envelope(err.code, err.message, err.details), unexpected: false };
  }
  return { status: httpStatusOf("INTERNAL_ERROR"), body: envelope("INTERNAL_ERROR", "the daemon hit an unexpected error; see its log"), unexpected: true };
}

import { z } from "zod";

/** Every stable error code the daemon can put in an envelope. Clients switch on these. */
export const ErrorCode = z.enum([
  "UNAUTHORIZED",
  "SESSION_ENDED",
  "LOGIN_CODE_INVALID",
  "FORBIDDEN_HOST",
  "FORBIDDEN_ORIGIN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "INVALID_JSON",
  "VALIDATION_FAILED",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "CONVERSATION_NOT_FOUND",
  "UNKNOWN_AGENT",
  "AGENT_CONFIG_REJECTED",
  "AGENT_UNAVAILABLE",
  "TURN_IN_PROGRESS",
  "CURSOR_INVALID",
  "MCP_SERVER_NOT_FOUND",
  "MCP_SERVER_EXISTS",
  "SKILL_NOT_FOUND",
  "SKILL_INVALID",
  "MEMORY_NOT_FOUND",
  "KNOWLEDGE_BASE_NOT_FOUND",
  "KNOWLEDGE_BASE_EXISTS",
  "DOCUMENT_NOT_FOUND",
  "IMPORT_NOT_FOUND",
  "IMPORT_PATH_INVALID",
  "CREDENTIAL_NOT_FOUND",
  "CREDENTIAL_UNREADABLE",
  "CONNECTION_NOT_FOUND",
  "CONNECTION_NAME_TAKEN",
  "CONNECTION_INVALID",
  "UNKNOWN_WIRE",
  "MALFORMED_REQUEST",
  "HEADERS_TOO_LARGE",
  "REQUEST_TIMEOUT",
  "INTERNAL_ERROR",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorBody = z.object({
  code: z.string().describe("Stable SCREAMING_SNAKE code (see ErrorCode)."),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ErrorEnvelope = z.object({ error: ErrorBody });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

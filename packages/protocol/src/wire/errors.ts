import { z } from "zod";

/**
 * What sort of failure a code is. The HTTP status comes from the kind (KIND_STATUS below) and
 * so does the CLI's exit status (the CLI's kind → exit table), so no code needs its own entry
 * in either. Codes that must behave alike share a kind; docs/decisions.md, "Error catalogue".
 */
export const ErrorKind = z.enum([
  "invalid", // 400, the request is malformed or names something this daemon does not offer
  "unauthorized", // 401
  "forbidden", // 403
  "not_found", // 404
  "method_not_allowed", // 405
  "timeout", // 408
  "exists", // 409, the name is taken
  "busy", // 409, the agent cannot take a turn right now
  "conflict", // 409, stored state the owner has to repair first
  "too_large", // 413
  "unsupported_media", // 415
  "unprocessable", // 422, well-formed but fails validation
  "headers_too_large", // 431
  "internal", // 500
  "bad_gateway", // 502, a platform the daemon had to ask (e.g. Telegram) could not be reached
  "unavailable", // 503, the daemon cannot serve this until the owner acts
  "storage_full", // 507, the disk is full
]);
export type ErrorKind = z.infer<typeof ErrorKind>;

/** kind → HTTP status: the one table. */
export const KIND_STATUS = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  timeout: 408,
  exists: 409,
  busy: 409,
  conflict: 409,
  too_large: 413,
  unsupported_media: 415,
  unprocessable: 422,
  headers_too_large: 431,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  storage_full: 507,
} as const satisfies Record<ErrorKind, number>;
export type ErrorStatus = (typeof KIND_STATUS)[ErrorKind];

interface CatalogueEntry {
  readonly kind: ErrorKind;
  readonly about: string;
}

/**
 * Every stable error code the daemon can put in an envelope, once. Adding a code is one line
 * here; a code raised anywhere that is not in this list fails to compile (DomainError, ApiError
 * and envelope() take an ErrorCode).
 */
export const ERROR_CATALOGUE = {
  UNAUTHORIZED: { kind: "unauthorized", about: "the daemon token is missing or wrong" },
  SESSION_ENDED: { kind: "unauthorized", about: "the page's session died with the daemon that issued it; run `coffer open`" },
  LOGIN_CODE_INVALID: { kind: "unauthorized", about: "the one-time login code is unknown, used or expired" },
  FORBIDDEN_HOST: { kind: "forbidden", about: "the request addressed the daemon by a non-loopback host name" },
  FORBIDDEN_ORIGIN: { kind: "forbidden", about: "a cross-site request (foreign Origin or Sec-Fetch-Site)" },
  NOT_FOUND: { kind: "not_found", about: "no route for this method and path" },
  METHOD_NOT_ALLOWED: { kind: "method_not_allowed", about: "the route exists but not for this method" },
  INVALID_JSON: { kind: "invalid", about: "the body is missing or not JSON" },
  VALIDATION_FAILED: { kind: "unprocessable", about: "the body, query or a path parameter fails its schema" },
  PAYLOAD_TOO_LARGE: { kind: "too_large", about: "the request body is over the daemon's limit" },
  UNSUPPORTED_MEDIA_TYPE: { kind: "unsupported_media", about: "the body is not in a content type this route reads" },
  MALFORMED_REQUEST: { kind: "invalid", about: "Node's HTTP parser rejected the request (broken framing)" },
  HEADERS_TOO_LARGE: { kind: "headers_too_large", about: "the request line and headers are over 16 KiB" },
  REQUEST_TIMEOUT: { kind: "timeout", about: "the request did not arrive in time" },
  INTERNAL_ERROR: { kind: "internal", about: "an unexpected fault; the daemon's log has the details" },
  CONVERSATION_NOT_FOUND: { kind: "not_found", about: "no conversation with this id" },
  CONVERSATION_ID_AMBIGUOUS: { kind: "invalid", about: "the id prefix names more than one conversation; details.candidates lists them" },
  PENDING_NOT_FOUND: { kind: "not_found", about: "no queued message with this id (it ran or was removed)" },
  PENDING_BEING_EDITED: { kind: "busy", about: "another editor holds this queued message; details say which surface and until when" },
  UNKNOWN_AGENT: { kind: "invalid", about: "the agent key is not one this daemon offers" },
  AGENT_CONFIG_REJECTED: { kind: "invalid", about: "the agent refused this configuration (e.g. an unknown model)" },
  AGENT_UNAVAILABLE: { kind: "busy", about: "the agent cannot run a turn now (not installed, not signed in…)" },
  TURN_IN_PROGRESS: { kind: "busy", about: "a turn is already running in this conversation" },
  CURSOR_INVALID: { kind: "invalid", about: "the paging cursor is malformed or from another listing" },
  MCP_SERVER_NOT_FOUND: { kind: "not_found", about: "no upstream MCP server with this name" },
  MCP_SERVER_EXISTS: { kind: "exists", about: "an upstream MCP server with this name already exists" },
  SKILL_NOT_FOUND: { kind: "not_found", about: "no skill with this name" },
  SKILL_INVALID: { kind: "conflict", about: "the skill's folder exists but is not usable (no SKILL.md, bad frontmatter)" },
  MEMORY_NOT_FOUND: { kind: "not_found", about: "no memory with this id" },
  KNOWLEDGE_BASE_NOT_FOUND: { kind: "not_found", about: "no knowledge base with this id or name" },
  KNOWLEDGE_BASE_EXISTS: { kind: "exists", about: "a knowledge base with this name already exists" },
  DOCUMENT_NOT_FOUND: { kind: "not_found", about: "no document with this id" },
  IMPORT_NOT_FOUND: { kind: "not_found", about: "no import with this id (imports are kept until a restart)" },
  IMPORT_PATH_INVALID: { kind: "unprocessable", about: "the import source is missing, unreadable or not a file or folder" },
  UPLOAD_PATH_INVALID: { kind: "unprocessable", about: "a path in an upload from the page cannot be written as given (too long, or a file and a folder at once)" },
  UPLOAD_TOO_LARGE: { kind: "too_large", about: "an upload from the page is over its limit; import larger folders by path" },
  ATTACHMENT_TOO_LARGE: { kind: "too_large", about: "an attached file is over the cap (COFFER_ATTACHMENT_MAX_MB); details.limit_bytes says it" },
  ATTACHMENT_TYPE_INVALID: { kind: "unsupported_media", about: "the upload's Content-Type is missing or not a media type (type/subtype)" },
  ATTACHMENT_EMPTY: { kind: "invalid", about: "the upload has no bytes" },
  ATTACHMENT_NOT_FOUND: { kind: "not_found", about: "no attachment with this id (never uploaded, or deleted with its conversation)" },
  TRANSCRIPTION_OFF: { kind: "conflict", about: "no transcription connection is set; set one in Settings → LLM Connections → Voice transcription to turn voice on" },
  TRANSCRIPTION_FAILED: { kind: "bad_gateway", about: "the transcription connection could not turn the audio into text (unreachable, refused, or answered with an error)" },
  SKILL_EXISTS: { kind: "exists", about: "a skill with this name already exists" },
  CREDENTIAL_NOT_FOUND: { kind: "not_found", about: "no credential stored under this ref" },
  CREDENTIAL_UNREADABLE: { kind: "conflict", about: "the stored credential cannot be decrypted; set it again" },
  CONNECTION_NOT_FOUND: { kind: "not_found", about: "no LLM connection with this id" },
  CONNECTION_NAME_TAKEN: { kind: "exists", about: "an LLM connection with this name already exists" },
  CONNECTION_INVALID: { kind: "invalid", about: "the LLM connection's settings do not fit together" },
  UNKNOWN_WIRE: { kind: "invalid", about: "the wire (API dialect) is not one this daemon speaks" },
  INVALID_URL: { kind: "invalid", about: "the URL's path or query has malformed percent-encoding" },
  QUESTION_NOT_FOUND: { kind: "not_found", about: "no open or answered question with this id in the conversation's running turn" },
  QUESTION_ALREADY_ANSWERED: { kind: "exists", about: "another surface answered first; details carry the winning answer" },
  QUEUE_FULL: { kind: "busy", about: "the conversation's pending queue is at its cap (COFFER_QUEUE_MAX)" },
  CREDENTIALS_KEY_CORRUPT: { kind: "unavailable", about: "credentials.key is empty, garbled or unsafe; the message says how to recover" },
  CREDENTIALS_KEY_UNAVAILABLE: { kind: "unavailable", about: "the credentials key is in the OS keyring, which did not give it (locked, not running, entry gone); no new key was made" },
  UNKNOWN_CHANNEL_KIND: { kind: "unprocessable", about: "no platform adapter is registered for this channel kind (GET /channel-kinds lists them)" },
  CHANNEL_CREDENTIALS_INVALID: { kind: "unprocessable", about: "the channel's credentials are not the ones its platform declares (a name missing or unknown)" },
  CHANNEL_NOT_FOUND: { kind: "not_found", about: "no channel with this id" },
  CHANNEL_NAME_TAKEN: { kind: "exists", about: "a channel with this name already exists" },
  CHANNEL_BOT_TAKEN: { kind: "exists", about: "another channel already uses this bot (a bot has one poller)" },
  CHANNEL_TOKEN_REJECTED: { kind: "unprocessable", about: "the platform refused the bot token (revoked or mistyped); nothing was stored" },
  CHANNEL_UNREACHABLE: { kind: "bad_gateway", about: "the platform could not be reached to check the bot token; nothing was stored" },
  BACKUP_PATH_INVALID: { kind: "unprocessable", about: "the backup path is not absolute, names a file that exists, or cannot be written; details.reason says which" },
  BACKUP_INVALID: { kind: "unprocessable", about: "the file is not a usable Coffer backup (not one, damaged, from a newer Coffer, or its key does not open its credentials)" },
  DATABASE_CORRUPT: { kind: "unavailable", about: "coffer.db failed SQLite's integrity check; the message names the latest snapshot and the restore command" },
  SCHEDULE_NOT_FOUND: { kind: "not_found", about: "no schedule with this id" },
  SCHEDULE_INVALID: { kind: "unprocessable", about: "the schedule cannot run as given (bad cron, unknown zone, conversation, agent or folder); details.field names which" },
  SEND_AT_PAST: { kind: "unprocessable", about: "send-later time not in the future (details.field)" },
  SEND_AT_TOO_FAR: { kind: "unprocessable", about: "send-later time over 30 days ahead (details.field)" },
  STORAGE_FULL: { kind: "storage_full", about: "the disk is full; nothing was written" },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ErrorCode = z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]);

export function errorKind(code: ErrorCode): ErrorKind {
  return ERROR_CATALOGUE[code].kind;
}

/** The HTTP status every response with this code carries. */
export function httpStatusOf(code: ErrorCode): ErrorStatus {
  return KIND_STATUS[errorKind(code)];
}

export const ErrorBody = z.object({
  code: ErrorCode.describe("Stable SCREAMING_SNAKE code; its kind fixes the HTTP status."),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const ErrorEnvelope = z.object({ error: ErrorBody });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

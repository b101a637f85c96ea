import { ERROR_CATALOGUE, httpStatusOf, type ErrorCode, type TurnErrorEvent } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import * as backupErrors from "../domain/backup-errors.js";
import * as channelErrors from "../domain/channel-errors.js";
import * as chatErrors from "../domain/errors.js";
import { DomainError } from "../domain/errors.js";
import * as laterErrors from "../domain/later-errors.js";
import * as questionErrors from "../domain/question-errors.js";
import * as scheduleErrors from "../domain/schedule-errors.js";
import * as settingsErrors from "../domain/settings-errors.js";
import * as vaultErrors from "../domain/vault-errors.js";
import { ApiError, envelope, toHttpError } from "./errors.js";

/** One instance of every DomainError subclass the domain exports. */
const INSTANCES: Record<string, DomainError> = {
  ConversationNotFound: new chatErrors.ConversationNotFound("c1"),
  ConversationIdAmbiguous: new chatErrors.ConversationIdAmbiguous("c", [{ id: "c1", title: "a", updated_at: "2026-01-01T00:00:00.000Z", archived: false }], true),
  UnknownAgent: new chatErrors.UnknownAgent("nope", ["claude-code"]),
  AgentConfigRejected: new chatErrors.AgentConfigRejected("bad model", "unknown_model"),
  AgentUnavailable: new chatErrors.AgentUnavailable("codex", "not signed in"),
  TurnInProgress: new chatErrors.TurnInProgress("c1"),
  CursorInvalid: new chatErrors.CursorInvalid(),
  QueueFull: new chatErrors.QueueFull("c1", 100),
  PendingNotFound: new chatErrors.PendingNotFound("c1", "p1"),
  PendingBeingEdited: new chatErrors.PendingBeingEdited("c1", "p1", "web", "2026-01-01T12:00:20.000Z"),
  QuestionNotFound: new questionErrors.QuestionNotFound("c1", "q1"),
  QuestionAlreadyAnswered: new questionErrors.QuestionAlreadyAnswered("q1", [{ selected: ["A"] }], "page"),
  AnswerInvalid: new questionErrors.AnswerInvalid("one answer per question", "q1"),
  ChannelNotFound: new channelErrors.ChannelNotFound("ch1"),
  ChannelNameTaken: new channelErrors.ChannelNameTaken("phone"),
  ChannelBotTaken: new channelErrors.ChannelBotTaken("coffer_bot", "phone"),
  ChannelTokenRejected: new channelErrors.ChannelTokenRejected("tg", "Telegram refused the bot token (401 Unauthorized)."),
  ChannelUnreachable: new channelErrors.ChannelUnreachable("tg", "Telegram could not be reached"),
  UnknownChannelKind: new channelErrors.UnknownChannelKind("slack", ["telegram"]),
  ChannelCredentialsInvalid: new channelErrors.ChannelCredentialsInvalid("Telegram", "unknown credential app_token", ["bot_token"]),
  ScheduleNotFound: new scheduleErrors.ScheduleNotFound("sch_1"),
  ScheduleInvalid: new scheduleErrors.ScheduleInvalid("when", "not a cron expression"),
  SendAtPast: new laterErrors.SendAtPast("send_at", "2026-01-01T00:00:00.000Z"),
  SendAtTooFar: new laterErrors.SendAtTooFar("send_at", "2027-01-01T00:00:00.000Z"),
  SkillNotFound: new vaultErrors.SkillNotFound("s"),
  SkillInvalid: new vaultErrors.SkillInvalid("s", "no SKILL.md"),
  SkillExists: new vaultErrors.SkillExists("s"),
  MemoryNotFound: new vaultErrors.MemoryNotFound("m"),
  KnowledgeBaseNotFound: new vaultErrors.KnowledgeBaseNotFound("kb"),
  KnowledgeBaseExists: new vaultErrors.KnowledgeBaseExists("kb"),
  DocumentNotFound: new vaultErrors.DocumentNotFound("d"),
  ImportNotFound: new vaultErrors.ImportNotFound("i"),
  ImportPathInvalid: new vaultErrors.ImportPathInvalid("/x", "missing"),
  ScopeNeedsProject: new vaultErrors.ScopeNeedsProject(),
  McpServerNotFound: new vaultErrors.McpServerNotFound("gh"),
  McpServerExists: new vaultErrors.McpServerExists("gh"),
  McpServerPatchRejected: new vaultErrors.McpServerPatchRejected("http", ["command"]),
  UploadPathInvalid: new vaultErrors.UploadPathInvalid("a/b.md", "a folder is in the way"),
  CredentialNotFound: new settingsErrors.CredentialNotFound("openai.main"),
  CredentialUnreadable: new settingsErrors.CredentialUnreadable("openai.main", "bad tag"),
  ConnectionNotFound: new settingsErrors.ConnectionNotFound("k1"),
  ConnectionNameTaken: new settingsErrors.ConnectionNameTaken("main"),
  UnknownProviderKind: new settingsErrors.UnknownProviderKind("gemini", ["openai"]),
  ConnectionInvalid: new settingsErrors.ConnectionInvalid("no model", "model"),
  CredentialsKeyCorrupt: new settingsErrors.CredentialsKeyCorrupt("/home/o/.coffer/credentials.key", "empty"),
  CredentialsKeyUnavailable: new settingsErrors.CredentialsKeyUnavailable("the keyring holds no key for this data dir"),
  StorageFull: new settingsErrors.StorageFull("credentials.key"),
  BackupPathInvalid: new backupErrors.BackupPathInvalid("/mnt/x", "its folder /mnt does not exist"),
  BackupInvalid: new backupErrors.BackupInvalid("/tmp/b.tar.gz", "it is not a gzip file"),
  DatabaseCorrupt: new backupErrors.DatabaseCorrupt("/home/o/.coffer/coffer.db", "quick_check: page 7 is damaged"),
  AttachmentTooLarge: new chatErrors.AttachmentTooLarge(25 * 1024 * 1024),
  AttachmentTypeInvalid: new chatErrors.AttachmentTypeInvalid(),
  AttachmentEmpty: new chatErrors.AttachmentEmpty(),
  AttachmentNotFound: new chatErrors.AttachmentNotFound("att_1"),
  TranscriptionOff: new chatErrors.TranscriptionOff(),
  TranscriptionFailed: new chatErrors.TranscriptionFailed("the server answered 500"),
};

/**
 * The statuses before the catalogue (the hand-kept DOMAIN_STATUS and the edge's literals; a
 * code missing there fell to 400). The catalogue must keep each one.
 */
const STATUS_BEFORE_CATALOGUE: Partial<Record<ErrorCode, number>> = {
  UNAUTHORIZED: 401,
  // Added by issue 11 on branches that still had DOMAIN_STATUS; the catalogue keeps them.
  QUEUE_FULL: 409,
  CREDENTIALS_KEY_CORRUPT: 503,
  STORAGE_FULL: 507,
  FORBIDDEN_HOST: 403,
  FORBIDDEN_ORIGIN: 403,
  NOT_FOUND: 404,
  INVALID_JSON: 400,
  VALIDATION_FAILED: 422,
  PAYLOAD_TOO_LARGE: 413,
  MALFORMED_REQUEST: 400,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  INTERNAL_ERROR: 500,
  CONVERSATION_NOT_FOUND: 404,
  UNKNOWN_AGENT: 400,
  AGENT_CONFIG_REJECTED: 400,
  CURSOR_INVALID: 400,
  AGENT_UNAVAILABLE: 409,
  TURN_IN_PROGRESS: 409,
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
  CREDENTIAL_NOT_FOUND: 404,
  CREDENTIAL_UNREADABLE: 409,
  CONNECTION_NOT_FOUND: 404,
  CONNECTION_NAME_TAKEN: 409,
  UNKNOWN_WIRE: 400,
  CONNECTION_INVALID: 400,
};

describe("toHttpError", () => {
  test("every DomainError subclass the domain exports is covered here", () => {
    const exported = Object.entries({ ...chatErrors, ...vaultErrors, ...settingsErrors, ...channelErrors, ...questionErrors, ...backupErrors, ...scheduleErrors, ...laterErrors })
      .filter(([, v]) => typeof v === "function" && v.prototype instanceof DomainError)
      .map(([name]) => name);
    expect(exported.sort()).toEqual(Object.keys(INSTANCES).sort());
  });

  test.each(Object.entries(INSTANCES))("%s answers its catalogue status with its own envelope", (name, err) => {
    expect(err.name).toBe(name);
    const { status, body, unexpected } = toHttpError(err);
    expect(status).toBe(httpStatusOf(err.code));
    // Codes older than the catalogue keep their status; newer ones have only the catalogue's.
    if (STATUS_BEFORE_CATALOGUE[err.code] !== undefined) expect(status).toBe(STATUS_BEFORE_CATALOGUE[err.code]);
    expect(body).toEqual({ error: { code: err.code, message: err.message, details: err.details } });
    expect(unexpected).toBe(false);
  });

  test("an ApiError's status is its code's, for every code in the catalogue", () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const { status, body } = toHttpError(new ApiError(code, "m"));
      expect(status, code).toBe(httpStatusOf(code));
      if (STATUS_BEFORE_CATALOGUE[code] !== undefined) expect(status, code).toBe(STATUS_BEFORE_CATALOGUE[code]);
      expect(body).toEqual(envelope(code, "m"));
    }
  });

  test("anything else is a 500 INTERNAL_ERROR that leaks nothing", () => {
    const { status, body, unexpected } = toHttpError(new Error("secret stack detail"));
    expect({ status, unexpected }).toEqual({ status: 500, unexpected: true });
    expect(body.error.code).toBe("INTERNAL_ERROR");
    expect(JSON.stringify(body)).not.toContain("secret");
  });
});

// The compiler is the test that no code outside the catalogue is raised: each line below must
// fail to type-check (`npm run typecheck:tests` fails if one ever compiles).
export class NotCatalogued extends DomainError {
  // @ts-expect-error a DomainError's code must be in protocol's ERROR_CATALOGUE
  readonly code = "NOT_IN_THE_CATALOGUE";
}
// @ts-expect-error an ApiError's code must be in the catalogue
export const notCatalogued = () => new ApiError("NOT_IN_THE_CATALOGUE", "m");
// @ts-expect-error a turn_error's code must be a turn code or a catalogue code
export const notATurnCode: TurnErrorEvent = { type: "turn_error", code: "model_rejected", message: "m" };

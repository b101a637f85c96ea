import { editorWhere, type ErrorCode } from "@coffer/protocol";

/**
 * A failure the owner can act on. `code` is stable and goes on the wire as-is; it must be in
 * protocol's ERROR_CATALOGUE, which also fixes its HTTP status (http/errors.ts).
 */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
  constructor(
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ConversationNotFound extends DomainError {
  readonly code = "CONVERSATION_NOT_FOUND";
  constructor(id: string) {
    super(`conversation not found: ${id}`, { conversation_id: id });
  }
}

/** An id prefix that names several conversations: the candidates (newest first, at most a few) go in details. */
export class ConversationIdAmbiguous extends DomainError {
  readonly code = "CONVERSATION_ID_AMBIGUOUS";
  constructor(prefix: string, candidates: readonly { id: string; title: string; updated_at: string; archived: boolean }[], more: boolean) {
    super(`"${prefix}" is the start of ${more ? "more than " : ""}${candidates.length} conversation ids; give more characters`, {
      prefix,
      candidates,
      more,
    });
  }
}

export class UnknownAgent extends DomainError {
  readonly code = "UNKNOWN_AGENT";
  constructor(agentKey: string, known: readonly string[]) {
    super(`unknown agent "${agentKey}"; this daemon offers: ${known.join(", ") || "none"}`, {
      agent_key: agentKey,
      known,
    });
  }
}

export class AgentConfigRejected extends DomainError {
  readonly code = "AGENT_CONFIG_REJECTED";
  constructor(message: string, reason: string, extra: Record<string, unknown> = {}) {
    super(message, { reason, ...extra });
  }
}

export class AgentUnavailable extends DomainError {
  readonly code = "AGENT_UNAVAILABLE";
  constructor(agentKey: string, why: string) {
    super(why, { agent_key: agentKey });
  }
}

export class TurnInProgress extends DomainError {
  readonly code = "TURN_IN_PROGRESS";
  constructor(conversationId: string) {
    super("a turn is already running in this conversation", { conversation_id: conversationId });
  }
}

export class CursorInvalid extends DomainError {
  readonly code = "CURSOR_INVALID";
  constructor() {
    super("the cursor is malformed or belongs to another listing");
  }
}

export class QueueFull extends DomainError {
  readonly code = "QUEUE_FULL";
  constructor(conversationId: string, limit: number) {
    super(`the queue already holds ${limit} messages (the most one conversation may queue); wait for some to run, or remove some`, {
      conversation_id: conversationId,
      limit,
    });
  }
}

export class PendingNotFound extends DomainError {
  readonly code = "PENDING_NOT_FOUND";
  constructor(conversationId: string, pendingId: string) {
    super("that message is no longer queued (it ran or was removed)", { conversation_id: conversationId, pending_id: pendingId });
  }
}

export class PendingBeingEdited extends DomainError {
  readonly code = "PENDING_BEING_EDITED";
  constructor(conversationId: string, pendingId: string, by: string, until: string) {
    super(`this queued message is being edited ${editorWhere(by)} (held until ${until.slice(11, 19)} UTC unless renewed); finish or cancel that edit first`, {
      conversation_id: conversationId,
      pending_id: pendingId,
      by,
      until,
    });
  }
}

export class AttachmentTooLarge extends DomainError {
  readonly code = "ATTACHMENT_TOO_LARGE";
  constructor(limitBytes: number) {
    super(`attached files are limited to ${Math.round(limitBytes / 1024 / 1024)} MB each (COFFER_ATTACHMENT_MAX_MB); send a smaller file, or put it in the workspace and name its path`, {
      limit_bytes: limitBytes,
    });
  }
}

export class AttachmentTypeInvalid extends DomainError {
  readonly code = "ATTACHMENT_TYPE_INVALID";
  constructor() {
    super("an upload needs its media type as Content-Type (type/subtype, e.g. image/png or application/octet-stream)");
  }
}

export class AttachmentEmpty extends DomainError {
  readonly code = "ATTACHMENT_EMPTY";
  constructor() {
    super("the file is empty: there is nothing to attach");
  }
}

export class TranscriptionOff extends DomainError {
  readonly code = "TRANSCRIPTION_OFF";
  constructor() {
    super("voice is off: no transcription connection is set (Settings → LLM Connections → Voice transcription)");
  }
}

export class TranscriptionFailed extends DomainError {
  readonly code = "TRANSCRIPTION_FAILED";
  /** `why` is written by the transcription client itself, the key already scrubbed from it. */
  constructor(why: string) {
    super(`the transcription connection could not turn the audio into text: ${why}`);
  }
}

export class AttachmentNotFound extends DomainError {
  readonly code = "ATTACHMENT_NOT_FOUND";
  constructor(id: string) {
    super("no attachment with this id (never uploaded, or deleted with its conversation)", { attachment_id: id });
  }
}

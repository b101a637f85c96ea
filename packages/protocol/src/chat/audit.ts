import { z } from "zod";
import { Timestamp } from "../wire/common.js";

/**
 * Every action the audit log records — the one list the daemon writes from and the REST
 * filter and `coffer audit --action` accept (docs/decisions.md, "Secrets and audit").
 */
export const AUDIT_ACTIONS = [
  "conversation_created",
  "conversation_deleted",
  "chat_turn_completed",
  "chat_queue_parked",
  "chat_queue_unparked",
  "chat_later_scheduled",
  "chat_later_changed",
  "chat_later_cancelled",
  "chat_later_due",
  "claude_session_reset",
  "codex_thread_resume_lost",
  "agent_session_restored",
  "agent_session_reseeded",
  "retention_pass",
  "retention_settings_changed",
  "alert_settings_changed",
  "question_settings_changed",
  "transcription_settings_changed",
  "credential_created",
  "credential_updated",
  "credential_deleted",
  "llm_connection_created",
  "llm_connection_updated",
  "llm_connection_deleted",
  "llm_connection_internal_default_set",
  "mcp_server_added",
  "mcp_server_changed",
  "mcp_server_enabled",
  "mcp_server_disabled",
  "mcp_server_removed",
  "skill_imported",
  "skill_created",
  "skill_removed",
  "knowledge_base_created",
  "knowledge_base_changed",
  "knowledge_base_removed",
  "knowledge_imported",
  "knowledge_document_removed",
  "memory_added",
  "memory_edited",
  "memory_removed",
  "channel_created",
  "channel_updated",
  "channel_enabled",
  "channel_disabled",
  "channel_deleted",
  "channel_pairing_code_issued",
  "channel_paired",
  "session_opened",
  "session_signed_out",
  "session_expired",
  "question_answered",
  "file_shared",
  "share_file_refused",
  "schedule_created",
  "schedule_changed",
  "schedule_deleted",
  "schedule_run",
  "brief_settings_changed",
  "brief_sent",
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/**
 * Who did it. `user`: the owner (REST with the daemon token, or the owner's own MCP client on
 * `/mcp` with it); `agent`: a managed agent — which one and in which conversation is in
 * `details.agent` / `details.conversation_id`, derived from the credential it authenticated
 * with, never from a header the client sets; `retention`: the retention worker.
 */
export const AUDIT_ACTORS = ["user", "agent", "retention"] as const;
export const AuditActor = z.enum(AUDIT_ACTORS);
export type AuditActor = z.infer<typeof AuditActor>;

/**
 * Who the daemon verified made the request (or sent the channel update) that wrote a row:
 * which page session, the daemon token (and over which transport), which channel, which agent's
 * gateway credential. Null for the daemon's own work (retention, restart recovery) and for rows
 * written before issue 21. `actor` stays the coarse reader-facing kind (docs/decisions.md,
 * "Hardening II: sign-in, sessions, who acted, connections").
 */
export const AuditPrincipal = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("session"), session_id: z.string() }),
  z.object({ kind: z.literal("token"), transport: z.enum(["tcp", "socket"]) }),
  z.object({ kind: z.literal("channel"), channel_id: z.string(), platform: z.string().optional().describe("The channel's kind (its platform adapter).") }),
  z.object({ kind: z.literal("agent"), agent: z.string(), conversation_id: z.string() }),
]);
export type AuditPrincipal = z.infer<typeof AuditPrincipal>;

export const AuditEntryOut = z.object({
  id: z.number().int(),
  at: Timestamp,
  actor: AuditActor,
  principal: AuditPrincipal.nullable(),
  action: AuditAction,
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntryOut = z.infer<typeof AuditEntryOut>;

export const AuditListQuery = z.object({
  action: AuditAction.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  before: z.coerce.number().int().positive().optional().describe("Entries with an id below this (paging back)."),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

export const AuditListOut = z.object({
  entries: z.array(AuditEntryOut).describe("Newest first."),
  next_before: z.number().int().nullable(),
});
export type AuditListOut = z.infer<typeof AuditListOut>;

import { z } from "zod";
import { Timestamp } from "./common.js";

export const AuditEntryOut = z.object({
  id: z.number().int(),
  at: Timestamp,
  actor: z.string().describe("user | agent | retention | api …"),
  action: z.string().describe("e.g. conversation_created, chat_turn_completed, retention_pass"),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntryOut = z.infer<typeof AuditEntryOut>;

export const AuditListQuery = z.object({
  action: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  before: z.coerce.number().int().positive().optional().describe("Entries with an id below this (paging back)."),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;

export const AuditListOut = z.object({
  entries: z.array(AuditEntryOut).describe("Newest first."),
  next_before: z.number().int().nullable(),
});
export type AuditListOut = z.infer<typeof AuditListOut>;

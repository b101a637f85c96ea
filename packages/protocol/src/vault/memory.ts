import { z } from "zod";
import { Timestamp } from "../wire/common.js";

export const MemoryScope = z.enum(["project", "global"]);
export type MemoryScope = z.infer<typeof MemoryScope>;

const FactText = z.string().trim().min(1).max(8000);
const Cwd = z.string().min(1).max(4096).describe("The project's working directory; project-scoped facts belong to it.");
const FactId = z.string().min(1).max(64);
const Label = z.string().trim().max(200);

// ---- Gateway tools -----------------------------------------------------------------

export const RememberInput = z.object({
  text: FactText.describe("The fact to keep."),
  scope: MemoryScope.optional().describe("project (default when a cwd is known) or global."),
  type: Label.optional().describe("A kind, e.g. fact, preference, decision (default: fact)."),
  name: Label.optional().describe("A short title (default: the start of the text)."),
  description: Label.optional(),
  cwd: Cwd.optional(),
});
export type RememberInput = z.infer<typeof RememberInput>;

export const RememberOutput = z.object({ id: z.string(), name: z.string(), scope: MemoryScope, status: z.literal("created") });
export type RememberOutput = z.infer<typeof RememberOutput>;

export const RecallMode = z.enum(["keyword", "grep", "vector"]);
export type RecallMode = z.infer<typeof RecallMode>;

export const RecallInput = z.object({
  query: z.string().trim().min(1).max(4096),
  scope: MemoryScope.optional().describe("Only this scope; default: global plus the cwd's project."),
  top_k: z.number().int().min(1).max(20).optional().describe("How many hits (default 5)."),
  mode: RecallMode.optional().describe("keyword (BM25, default), grep (substring); vector falls back to keyword."),
  cwd: Cwd.optional(),
});
export type RecallInput = z.infer<typeof RecallInput>;

export const RecallHit = z.object({
  id: z.string(),
  text: z.string(),
  score: z.number().describe("Higher is better."),
  source: z.string().describe('"global" or "project:<cwd>".'),
  time: Timestamp.describe("When the fact was last written."),
});
export type RecallHit = z.infer<typeof RecallHit>;

export const RecallOutput = z.object({
  hits: z.array(RecallHit),
  fallback: z.boolean().describe("true when the asked mode found nothing (or is not available) and a looser match answered."),
});
export type RecallOutput = z.infer<typeof RecallOutput>;

export const UpdateMemoryInput = z.object({ id: FactId, text: FactText, cwd: Cwd.optional() });
export type UpdateMemoryInput = z.infer<typeof UpdateMemoryInput>;

export const ForgetInput = z.object({ id: FactId, cwd: Cwd.optional() });
export type ForgetInput = z.infer<typeof ForgetInput>;

export const ListMemoryInput = z.object({
  scope: MemoryScope.optional().describe("Default: global plus the cwd's project."),
  cwd: Cwd.optional(),
  limit: z.number().int().min(1).max(200).optional().describe("Newest first (default 50)."),
});
export type ListMemoryInput = z.infer<typeof ListMemoryInput>;

export const ListMemoryOutput = z.object({
  scope: z.string().describe('"global", "project" or "all".'),
  total: z.number().int(),
  facts: z.array(
    z.object({ id: z.string(), name: z.string(), description: z.string(), type: z.string(), actor: z.string(), text: z.string() }),
  ),
});
export type ListMemoryOutput = z.infer<typeof ListMemoryOutput>;

// ---- REST ------------------------------------------------------------------------

export const MemoryFactOut = z.object({
  id: z.string(),
  text: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.string(),
  scope: MemoryScope,
  project: z.string().nullable().describe("The cwd of a project-scoped fact."),
  actor: z.string().describe("Who wrote it: owner, or the agent's MCP client name."),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type MemoryFactOut = z.infer<typeof MemoryFactOut>;

export const MemoryCreate = RememberInput.omit({ cwd: true }).extend({ project: Cwd.optional() });
export type MemoryCreate = z.infer<typeof MemoryCreate>;

export const MemoryPatch = z.object({ text: FactText.optional(), name: Label.optional(), description: Label.optional(), type: Label.optional() });
export type MemoryPatch = z.infer<typeof MemoryPatch>;

export const MemoryListQuery = z.object({
  scope: MemoryScope.optional(),
  project: Cwd.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
});
export type MemoryListQuery = z.infer<typeof MemoryListQuery>;

export const MemoryListOut = z.object({ total: z.number().int(), facts: z.array(MemoryFactOut) });
export type MemoryListOut = z.infer<typeof MemoryListOut>;

export const MemorySearchQuery = z.object({
  q: z.string().trim().min(1).max(4096),
  scope: MemoryScope.optional(),
  project: Cwd.optional(),
  top_k: z.coerce.number().int().min(1).max(50).optional(),
  mode: RecallMode.optional(),
});
export type MemorySearchQuery = z.infer<typeof MemorySearchQuery>;

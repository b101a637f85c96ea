import { z } from "zod";
import { Timestamp } from "../wire/common.js";

const KbRef = z.string().min(1).max(200).describe("A knowledge base's name or id.");
const KbName = z.string().trim().min(1).max(100);

// ---- Gateway tools -----------------------------------------------------------------

export const ListKnowledgeBasesInput = z.object({});
export type ListKnowledgeBasesInput = z.infer<typeof ListKnowledgeBasesInput>;

export const KnowledgeBaseSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  documents: z.number().int(),
  chunks: z.number().int(),
});
export type KnowledgeBaseSummary = z.infer<typeof KnowledgeBaseSummary>;

export const ListKnowledgeBasesOutput = z.object({ knowledge_bases: z.array(KnowledgeBaseSummary) });
export type ListKnowledgeBasesOutput = z.infer<typeof ListKnowledgeBasesOutput>;

export const SearchKnowledgeInput = z.object({
  query: z.string().trim().min(1).max(4096),
  kb: KbRef.optional().describe("Search only this knowledge base (default: all)."),
  top_k: z.number().int().min(1).max(20).optional().describe("How many hits (default 5)."),
});
export type SearchKnowledgeInput = z.infer<typeof SearchKnowledgeInput>;

export const KnowledgeHit = z.object({
  kb: z.string().describe("The knowledge base's name."),
  document_id: z.string(),
  filename: z.string().describe("The document's path relative to where it was imported from."),
  chunk: z.number().int().describe("The chunk's position in its document, from 0."),
  score: z.number().describe("BM25 relevance; higher is better."),
  snippet: z.string().describe("The matching passage, matches wrapped in [ ]."),
  text: z.string().describe("The whole chunk."),
});
export type KnowledgeHit = z.infer<typeof KnowledgeHit>;

export const SearchKnowledgeOutput = z.object({
  hits: z.array(KnowledgeHit),
  fallback: z.boolean().describe("true when no chunk held every word and chunks holding any of them answered."),
});
export type SearchKnowledgeOutput = z.infer<typeof SearchKnowledgeOutput>;

export const ReadDocumentInput = z.object({
  document_id: z.string().min(1).max(64),
  offset: z.number().int().min(0).optional().describe("First character to return (default 0)."),
  max_chars: z.number().int().min(1).max(100_000).optional().describe("At most this many characters (default 20,000)."),
});
export type ReadDocumentInput = z.infer<typeof ReadDocumentInput>;

export const ReadDocumentOutput = z.object({
  document_id: z.string(),
  kb: z.string(),
  filename: z.string(),
  content: z.string(),
  offset: z.number().int(),
  total_chars: z.number().int(),
  truncated: z.boolean().describe("More text follows; read again from offset + content length."),
});
export type ReadDocumentOutput = z.infer<typeof ReadDocumentOutput>;

// ---- REST ------------------------------------------------------------------------

export const KnowledgeBaseOut = KnowledgeBaseSummary.extend({ created_at: Timestamp, updated_at: Timestamp });
export type KnowledgeBaseOut = z.infer<typeof KnowledgeBaseOut>;

export const KnowledgeBaseListOut = z.object({ knowledge_bases: z.array(KnowledgeBaseOut) });
export type KnowledgeBaseListOut = z.infer<typeof KnowledgeBaseListOut>;

export const KnowledgeBaseCreate = z.object({ name: KbName, description: z.string().trim().max(1000).optional() });
export type KnowledgeBaseCreate = z.infer<typeof KnowledgeBaseCreate>;

export const KnowledgeBasePatch = z.object({ name: KbName.optional(), description: z.string().trim().max(1000).optional() });
export type KnowledgeBasePatch = z.infer<typeof KnowledgeBasePatch>;

export const DocumentOut = z.object({
  id: z.string(),
  kb_id: z.string(),
  filename: z.string(),
  source_path: z.string().describe("Where the file was read from."),
  chars: z.number().int(),
  chunks: z.number().int(),
  created_at: Timestamp,
});
export type DocumentOut = z.infer<typeof DocumentOut>;

export const DocumentListOut = z.object({ documents: z.array(DocumentOut) });
export type DocumentListOut = z.infer<typeof DocumentListOut>;

export const DocumentDetailOut = DocumentOut.extend({ content: z.string() });
export type DocumentDetailOut = z.infer<typeof DocumentDetailOut>;

export const KnowledgeImportIn = z.object({
  path: z.string().min(1).max(4096).describe("A file or folder on the daemon's machine (markdown, text, code)."),
});
export type KnowledgeImportIn = z.infer<typeof KnowledgeImportIn>;

/** queued: waiting for the import before it (one import runs at a time). */
export const ImportStatus = z.enum(["queued", "running", "done", "failed"]);

export const ImportJobOut = z.object({
  id: z.string(),
  kb_id: z.string(),
  path: z.string(),
  status: ImportStatus,
  done: z.number().int().describe("Files handled so far (imported or skipped)."),
  total: z.number().int().describe("Files found; known once the scan finished."),
  imported: z.number().int(),
  skipped: z.array(z.object({ filename: z.string(), reason: z.string() })),
  error: z.string().nullable(),
  started_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type ImportJobOut = z.infer<typeof ImportJobOut>;

export const KnowledgeSearchQuery = z.object({
  q: z.string().trim().min(1).max(4096),
  kb: KbRef.optional(),
  top_k: z.coerce.number().int().min(1).max(50).optional(),
});
export type KnowledgeSearchQuery = z.infer<typeof KnowledgeSearchQuery>;

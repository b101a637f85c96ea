/**
 * The ports the vault's use cases need. Adapters: infrastructure/sqlite (memory and
 * knowledge rows with FTS5) and infrastructure/vault-files (skill folders, documents on disk).
 */

/** A file uploaded from the page: its relative path inside what was picked (checked: no `..`), and its bytes. */
export interface UploadedFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

// ---- Skills ------------------------------------------------------------------------

/** The problem a skill folder without SKILL.md is listed with (the library reports it). */
export const SKILL_FILE_MISSING = "SKILL.md missing";

/** One folder under <data dir>/skills, parsed. `problem` set = left out of the catalogue. */
export interface SkillEntry {
  readonly folder: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly problem: string | null;
}

export interface SkillImportReport {
  readonly imported: SkillEntry[];
  readonly skipped: { readonly folder: string; readonly problem: string }[];
}

export interface SkillLibrary {
  /** Every skill folder, sorted by folder name; never throws for one bad folder. */
  list(): Promise<SkillEntry[]>;
  /** The folder's SKILL.md text, or null when it has none. */
  read(folder: string): Promise<string | null>;
  /** Copies a skill folder, or every skill folder inside a folder, into the library. */
  importFrom(path: string, overwrite: boolean): Promise<SkillImportReport>;
  /** Adds skill folders uploaded from the page, with the same checks and report as `importFrom`. */
  importUploaded(files: readonly UploadedFile[], overwrite: boolean): Promise<SkillImportReport>;
  /** Writes a new skill folder holding only its SKILL.md; false when a skill folder by that name exists. */
  create(name: string, description: string, body: string): Promise<boolean>;
  /** Removes a skill folder; false when there is none. */
  remove(folder: string): Promise<boolean>;
}

// ---- Memory ------------------------------------------------------------------------

export type Scope = "global" | "project";

/**
 * A fact as stored: the row's own columns (times in epoch ms), read back as they are. The store
 * returns it and the service turns it into the wire shape once (docs/decisions.md, "Each record
 * mapped once").
 */
export interface MemoryFact {
  readonly id: string;
  readonly scope: Scope;
  /** The project's cwd; null for global facts. */
  readonly project: string | null;
  readonly name: string;
  readonly description: string;
  readonly type: string;
  readonly text: string;
  readonly actor: string;
  readonly created_at: number;
  readonly updated_at: number;
}

/** Which facts a read sees: global ones, one project's, or both. */
export interface ScopeFilter {
  readonly global: boolean;
  readonly project: string | null;
  /** The owner's list without a project shows every project's facts too. */
  readonly allProjects?: boolean;
}

/** all = every word must match (BM25), any = at least one word (BM25), substring = plain text containment. */
export type MatchMode = "all" | "any" | "substring";

export interface ScoredFact {
  readonly fact: MemoryFact;
  readonly score: number;
}

export interface MemoryStore {
  insert(fact: MemoryFact): void;
  get(id: string): MemoryFact | null;
  update(id: string, patch: Partial<Pick<MemoryFact, "text" | "name" | "description" | "type">>, now: number): boolean;
  delete(id: string): boolean;
  list(filter: ScopeFilter, limit: number, offset: number): { total: number; facts: MemoryFact[] };
  search(query: string, filter: ScopeFilter, topK: number, mode: MatchMode): ScoredFact[];
}

// ---- Knowledge ---------------------------------------------------------------------

/** A base as stored, with its document and chunk counts; times in epoch ms. */
export interface KnowledgeBase {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly documents: number;
  readonly chunks: number;
  readonly created_at: number;
  readonly updated_at: number;
}

/** A document as stored, with its base's id and name and its length in characters. */
export interface KnowledgeDocument {
  readonly id: string;
  readonly kb_id: string;
  readonly kb_name: string;
  readonly filename: string;
  readonly source_path: string;
  readonly chars: number;
  readonly chunks: number;
  readonly created_at: number;
}

export interface NewDocument {
  readonly id: string;
  readonly filename: string;
  readonly sourcePath: string;
  readonly content: string;
  readonly chunks: readonly string[];
  readonly now: number;
}

/** A chunk that matched, as the search row gives it; `score` is BM25 made higher-is-better. */
export interface ChunkHit {
  readonly kb_name: string;
  readonly document_id: string;
  readonly filename: string;
  readonly ordinal: number;
  readonly score: number;
  readonly snippet: string;
  readonly text: string;
}

export interface KnowledgeStore {
  createBase(base: { id: string; name: string; description: string; now: number }): void;
  /** By id, or by name (case-insensitive). */
  findBase(ref: string): KnowledgeBase | null;
  listBases(): KnowledgeBase[];
  patchBase(id: string, patch: { name?: string; description?: string }, now: number): void;
  deleteBase(id: string): boolean;
  nameTaken(name: string, exceptId?: string): boolean;
  /** Adds a document with its chunks, replacing one with the same filename in the base. */
  putDocument(kbId: string, doc: NewDocument): void;
  listDocuments(kbId: string): KnowledgeDocument[];
  getDocument(id: string): (KnowledgeDocument & { readonly content: string }) | null;
  deleteDocument(id: string): boolean;
  search(query: string, kbId: string | null, topK: number, mode: Exclude<MatchMode, "substring">): ChunkHit[];
}

/** A file an import found: where it is, and the name it gets in the knowledge base. */
export interface SourceFile {
  readonly path: string;
  readonly filename: string;
}

export interface DocumentSource {
  /** The files under a path (a file or a folder), sorted; throws ImportPathInvalid. */
  scan(path: string): Promise<{ readonly files: SourceFile[]; readonly skipped: { filename: string; reason: string }[] }>;
  /** The file's text, or why it is not a document we can index. */
  read(file: SourceFile): Promise<{ readonly text: string } | { readonly skip: string }>;
}

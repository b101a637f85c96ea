import { KnowledgeBases } from "./knowledge-bases.js";
import { KnowledgeDocuments } from "./knowledge-documents.js";
import { KnowledgeImports, type KnowledgeImportsDeps } from "./knowledge-imports.js";

/** Everything the knowledge services need between them (each takes its own part). */
export type KnowledgeDeps = KnowledgeImportsDeps;

/**
 * Knowledge use cases, split by what changes together (docs/decisions.md, "Services split by
 * what changes together"): the bases, the documents they hold (read and searched), and imports.
 */
export interface Knowledge {
  readonly bases: KnowledgeBases;
  readonly documents: KnowledgeDocuments;
  readonly imports: KnowledgeImports;
}

export function knowledgeServices(deps: KnowledgeDeps): Knowledge {
  return { bases: new KnowledgeBases(deps), documents: new KnowledgeDocuments(deps), imports: new KnowledgeImports(deps) };
}

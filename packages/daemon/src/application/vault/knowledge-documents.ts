import type { DocumentDetailOut, DocumentListOut, DocumentOut, ReadDocumentOutput, SearchKnowledgeOutput } from "@coffer/protocol";
import { DocumentNotFound } from "../../domain/vault-errors.js";
import type { AuditSink } from "../audit-log.js";
import type { Clock } from "../ports.js";
import { iso } from "../presenters.js";
import { findBase } from "./knowledge-bases.js";
import type { KnowledgeDocument, KnowledgeStore } from "./vault-ports.js";

export interface KnowledgeDocumentsDeps {
  readonly store: KnowledgeStore;
  readonly clock: Clock;
  /** A removed document is audited. */
  readonly audit: AuditSink;
}

const READ_DEFAULT = 20_000;

/** What a base holds once imported: its documents, read whole or in windows, and searched with BM25. */
export class KnowledgeDocuments {
  constructor(private readonly deps: KnowledgeDocumentsDeps) {}

  list(kbRef: string): DocumentListOut {
    const { store } = this.deps;
    return { documents: store.listDocuments(findBase(store, kbRef).id).map(toDocumentOut) };
  }

  get(id: string): DocumentDetailOut {
    const doc = this.deps.store.getDocument(id);
    if (!doc) throw new DocumentNotFound(id);
    return { ...toDocumentOut(doc), content: doc.content };
  }

  delete(id: string): void {
    if (!this.deps.store.deleteDocument(id)) throw new DocumentNotFound(id);
    this.deps.audit("user", "knowledge_document_removed", { id }, this.deps.clock.now());
  }

  /** BM25 over chunks; when no chunk holds every word, chunks holding any of them answer. */
  search(query: string, kbRef: string | undefined, topK = 5): SearchKnowledgeOutput {
    const { store } = this.deps;
    const kbId = kbRef === undefined ? null : findBase(store, kbRef).id;
    let hits = store.search(query, kbId, topK, "all");
    let fallback = false;
    if (!hits.length) {
      hits = store.search(query, kbId, topK, "any");
      fallback = true;
    }
    return {
      hits: hits.map(({ kb_name, ordinal, score, ...hit }) => ({ ...hit, kb: kb_name, chunk: ordinal, score: Math.round(score * 10_000) / 10_000 })),
      fallback,
    };
  }

  /** coffer__read_document: a window of the document's text, so a long one is read in parts. */
  read(documentId: string, offset = 0, maxChars = READ_DEFAULT): ReadDocumentOutput {
    const doc = this.deps.store.getDocument(documentId);
    if (!doc) throw new DocumentNotFound(documentId);
    const content = doc.content.slice(offset, offset + maxChars);
    return {
      document_id: doc.id,
      kb: doc.kb_name,
      filename: doc.filename,
      content,
      offset,
      total_chars: doc.content.length,
      truncated: offset + content.length < doc.content.length,
    };
  }
}

function toDocumentOut({ kb_name: _kbName, created_at, ...d }: KnowledgeDocument): DocumentOut {
  return { ...d, created_at: iso(created_at) };
}

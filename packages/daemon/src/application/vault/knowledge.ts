import type {
  DocumentDetailOut,
  DocumentListOut,
  DocumentOut,
  ImportJobOut,
  KnowledgeBaseCreate,
  KnowledgeBaseListOut,
  KnowledgeBaseOut,
  KnowledgeBasePatch,
  ReadDocumentOutput,
  SearchKnowledgeOutput,
} from "@coffer/protocol";
import { setImmediate } from "node:timers/promises";
import { chunkText } from "../../domain/chunking.js";
import { DocumentNotFound, KnowledgeBaseExists, KnowledgeBaseNotFound } from "../../domain/vault-errors.js";
import type { AuditSink } from "../audit-log.js";
import type { Clock, IdGenerator, Logger } from "../ports.js";
import { iso, withIsoTimes } from "../presenters.js";
import { ImportJobs, toJobOut, type ImportJob, type ImportProgress } from "./import-jobs.js";
import type { DocumentSource, KnowledgeBase, KnowledgeDocument, KnowledgeStore, UploadedFile } from "./vault-ports.js";

export interface KnowledgeServiceDeps {
  readonly store: KnowledgeStore;
  readonly source: DocumentSource;
  /** Reads files uploaded from the page through the same import as `source`. */
  readonly uploads: (files: readonly UploadedFile[]) => DocumentSource;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Bases created, changed, removed and imports (which read the owner's files) are audited. */
  readonly audit: AuditSink;
}

const READ_DEFAULT = 20_000;

/** Knowledge use cases: bases of imported documents, chunked and searched with BM25. */
export class KnowledgeService {
  private readonly jobs = new ImportJobs();
  private importing: Promise<void> = Promise.resolve();
  /** Imports started and not yet finished (the one running and those queued behind it). */
  private inLine = 0;

  constructor(private readonly deps: KnowledgeServiceDeps) {}

  list(): KnowledgeBaseListOut {
    return { knowledge_bases: this.deps.store.listBases().map(toBaseOut) };
  }

  create(input: KnowledgeBaseCreate): KnowledgeBaseOut {
    const { store, clock, ids } = this.deps;
    if (store.nameTaken(input.name)) throw new KnowledgeBaseExists(input.name);
    const id = ids();
    const now = clock.now();
    store.createBase({ id, name: input.name, description: input.description ?? "", now });
    this.deps.audit("user", "knowledge_base_created", { id, name: input.name }, now);
    return toBaseOut(this.base(id));
  }

  get(ref: string): KnowledgeBaseOut {
    return toBaseOut(this.base(ref));
  }

  patch(ref: string, patch: KnowledgeBasePatch): KnowledgeBaseOut {
    const base = this.base(ref);
    if (patch.name !== undefined && this.deps.store.nameTaken(patch.name, base.id)) throw new KnowledgeBaseExists(patch.name);
    const now = this.deps.clock.now();
    this.deps.store.patchBase(base.id, patch, now);
    this.deps.audit("user", "knowledge_base_changed", { id: base.id, name: patch.name ?? base.name, fields: Object.keys(patch) }, now);
    return toBaseOut(this.base(base.id));
  }

  delete(ref: string): void {
    const base = this.base(ref);
    this.deps.store.deleteBase(base.id);
    this.deps.audit("user", "knowledge_base_removed", { id: base.id, name: base.name }, this.deps.clock.now());
  }

  documents(ref: string): DocumentListOut {
    return { documents: this.deps.store.listDocuments(this.base(ref).id).map(toDocumentOut) };
  }

  document(id: string): DocumentDetailOut {
    const doc = this.deps.store.getDocument(id);
    if (!doc) throw new DocumentNotFound(id);
    return { ...toDocumentOut(doc), content: doc.content };
  }

  deleteDocument(id: string): void {
    if (!this.deps.store.deleteDocument(id)) throw new DocumentNotFound(id);
    this.deps.audit("user", "knowledge_document_removed", { id }, this.deps.clock.now());
  }

  /** BM25 over chunks; when no chunk holds every word, chunks holding any of them answer. */
  search(query: string, kbRef: string | undefined, topK = 5): SearchKnowledgeOutput {
    const kbId = kbRef === undefined ? null : this.base(kbRef).id;
    let hits = this.deps.store.search(query, kbId, topK, "all");
    let fallback = false;
    if (!hits.length) {
      hits = this.deps.store.search(query, kbId, topK, "any");
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

  /**
   * Starts importing a file or folder into a base and returns at once with the job (its
   * total known); the work goes on in the background and the job shows its progress.
   */
  async startImport(kbRef: string, path: string): Promise<ImportJobOut> {
    return this.startFrom(kbRef, path, this.deps.source);
  }

  /** Like `startImport`, for files uploaded from the page; `label` is what the job shows as its source. */
  async startUpload(kbRef: string, label: string, files: readonly UploadedFile[]): Promise<ImportJobOut> {
    return this.startFrom(kbRef, label, this.deps.uploads(files));
  }

  private async startFrom(kbRef: string, path: string, source: DocumentSource): Promise<ImportJobOut> {
    const { job, run } = await this.prepareImport(kbRef, path, source);
    // The job records the failure for whoever polls it; the log keeps the detail.
    void run().catch((err: unknown) => this.deps.logger.error("knowledge import failed", { kb: job.kb_id, path, err: String(err) }));
    return toJobOut(job);
  }

  /** Imports and waits; `onProgress` hears every file handled. */
  async importNow(kbRef: string, path: string, onProgress?: (p: ImportProgress) => void): Promise<ImportJobOut> {
    const { job, run } = await this.prepareImport(kbRef, path, this.deps.source, onProgress);
    await run();
    return toJobOut(job);
  }

  importJob(id: string): ImportJobOut {
    return this.jobs.get(id);
  }

  private async prepareImport(kbRef: string, path: string, source: DocumentSource, onProgress?: (p: ImportProgress) => void) {
    const { clock, ids } = this.deps;
    const base = this.base(kbRef);
    const scan = await source.scan(path);
    const total = scan.files.length + scan.skipped.length;
    const job: ImportJob = this.jobs.start(ids(), base.id, path, total, clock.now());
    // Queued only behind another import: alone, it is running from its first answer.
    if (this.inLine === 0) job.status = "running";
    // Audited when it starts: the owner asked Coffer to read these files.
    this.deps.audit("user", "knowledge_imported", { kb_id: base.id, kb_name: base.name, path, job_id: job.id, files: total }, job.started_at);
    const step = () => {
      job.done += 1;
      onProgress?.({ done: job.done, total: job.total });
    };
    const run = () => this.oneAtATime(async () => {
      job.status = "running";
      try {
        await this.importFiles(base.id, source, scan, job, step);
      } catch (err) {
        job.status = "failed";
        job.error = err instanceof Error ? err.message : String(err);
        job.finished_at = clock.now();
        throw err;
      }
    });
    return { job, run };
  }

  /**
   * Runs imports one after another: each is queued behind the one before it (its job says
   * "queued" until then), so several large uploads never compete for the event loop and the
   * database at once (docs/decisions.md, "Hardening II: daemon resources").
   */
  private oneAtATime(work: () => Promise<void>): Promise<void> {
    this.inLine += 1;
    const next = this.importing.then(work).finally(() => (this.inLine -= 1));
    this.importing = next.catch(() => undefined);
    return next;
  }

  private async importFiles(kbId: string, source: DocumentSource, scan: Awaited<ReturnType<DocumentSource["scan"]>>, job: ImportJob, step: () => void) {
    const { store, clock, ids } = this.deps;
    for (const s of scan.skipped) {
      job.skipped.push(s);
      step();
    }
    for (const file of scan.files) {
      const read = await source.read(file);
      if ("skip" in read) job.skipped.push({ filename: file.filename, reason: read.skip });
      else {
        const chunks = chunkText(read.text);
        if (!chunks.length) job.skipped.push({ filename: file.filename, reason: "empty" });
        else {
          store.putDocument(kbId, { id: ids(), filename: file.filename, sourcePath: file.path, content: read.text, chunks, now: clock.now() });
          job.imported += 1;
        }
      }
      step();
      // A file is at most one slice of work: the page, the live streams and the phone are
      // answered between two files, however many the import holds.
      await setImmediate();
    }
    job.status = "done";
    job.finished_at = clock.now();
  }

  private base(ref: string): KnowledgeBase {
    const base = this.deps.store.findBase(ref);
    if (!base) throw new KnowledgeBaseNotFound(ref);
    return base;
  }
}

function toBaseOut(b: KnowledgeBase): KnowledgeBaseOut {
  return withIsoTimes(b);
}

function toDocumentOut({ kb_name: _kbName, created_at, ...d }: KnowledgeDocument): DocumentOut {
  return { ...d, created_at: iso(created_at) };
}

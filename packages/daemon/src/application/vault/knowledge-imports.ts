import type { ImportJobOut } from "@coffer/protocol";
import { setImmediate } from "node:timers/promises";
import { chunkText } from "../../domain/chunking.js";
import type { AuditSink } from "../audit-log.js";
import type { Clock, IdGenerator, Logger } from "../ports.js";
import { ImportJobs, toJobOut, type ImportJob, type ImportProgress } from "./import-jobs.js";
import { findBase } from "./knowledge-bases.js";
import type { DocumentSource, KnowledgeStore, UploadedFile } from "./vault-ports.js";

export interface KnowledgeImportsDeps {
  readonly store: KnowledgeStore;
  readonly source: DocumentSource;
  /** Reads files uploaded from the page through the same import as `source`. */
  readonly uploads: (files: readonly UploadedFile[]) => DocumentSource;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Imports read the owner's files: each is audited when it starts. */
  readonly audit: AuditSink;
}

/** Imports into a base: read, chunked and stored one after another, each a job the page polls. */
export class KnowledgeImports {
  private readonly jobs = new ImportJobs();
  private importing: Promise<void> = Promise.resolve();
  /** Imports started and not yet finished (the one running and those queued behind it). */
  private inLine = 0;

  constructor(private readonly deps: KnowledgeImportsDeps) {}

  /**
   * Starts importing a file or folder into a base and returns at once with the job (its
   * total known); the work goes on in the background and the job shows its progress.
   */
  async start(kbRef: string, path: string): Promise<ImportJobOut> {
    return this.startFrom(kbRef, path, this.deps.source);
  }

  /** Like `start`, for files uploaded from the page; `label` is what the job shows as its source. */
  async upload(kbRef: string, label: string, files: readonly UploadedFile[]): Promise<ImportJobOut> {
    return this.startFrom(kbRef, label, this.deps.uploads(files));
  }

  /** Imports and waits; `onProgress` hears every file handled. */
  async now(kbRef: string, path: string, onProgress?: (p: ImportProgress) => void): Promise<ImportJobOut> {
    const { job, run } = await this.prepare(kbRef, path, this.deps.source, onProgress);
    await run();
    return toJobOut(job);
  }

  job(id: string): ImportJobOut {
    return this.jobs.get(id);
  }

  private async startFrom(kbRef: string, path: string, source: DocumentSource): Promise<ImportJobOut> {
    const { job, run } = await this.prepare(kbRef, path, source);
    // The job records the failure for whoever polls it; the log keeps the detail.
    void run().catch((err: unknown) => this.deps.logger.error("knowledge import failed", { kb: job.kb_id, path, err: String(err) }));
    return toJobOut(job);
  }

  private async prepare(kbRef: string, path: string, source: DocumentSource, onProgress?: (p: ImportProgress) => void) {
    const { clock, ids } = this.deps;
    const base = findBase(this.deps.store, kbRef);
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
}

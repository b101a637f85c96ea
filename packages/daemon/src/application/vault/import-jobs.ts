import type { ImportJobOut } from "@coffer/protocol";
import { ImportNotFound } from "../../domain/vault-errors.js";

export interface ImportProgress {
  readonly done: number;
  readonly total: number;
}

interface Job {
  id: string;
  kbId: string;
  path: string;
  status: "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
  imported: number;
  skipped: { filename: string; reason: string }[];
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

const KEEP = 100;

/** Imports in flight and recently finished, in memory: a client polls one until it is done. */
export class ImportJobs {
  private readonly jobs = new Map<string, Job>();

  start(id: string, kbId: string, path: string, total: number, now: number): Job {
    const job: Job = { id, kbId, path, status: "queued", done: 0, total, imported: 0, skipped: [], error: null, startedAt: now, finishedAt: null };
    this.jobs.set(id, job);
    // Forget the oldest finished jobs; a queued or running one is never dropped.
    for (const [key, old] of this.jobs) {
      if (this.jobs.size <= KEEP) break;
      if (old.status === "done" || old.status === "failed") this.jobs.delete(key);
    }
    return job;
  }

  get(id: string): ImportJobOut {
    const job = this.jobs.get(id);
    if (!job) throw new ImportNotFound(id);
    return toJobOut(job);
  }

  find(id: string): Job | undefined {
    return this.jobs.get(id);
  }
}

export type { Job as ImportJob };

export function toJobOut(j: Job): ImportJobOut {
  return {
    id: j.id,
    kb_id: j.kbId,
    path: j.path,
    status: j.status,
    done: j.done,
    total: j.total,
    imported: j.imported,
    skipped: [...j.skipped],
    error: j.error,
    started_at: new Date(j.startedAt).toISOString(),
    finished_at: j.finishedAt === null ? null : new Date(j.finishedAt).toISOString(),
  };
}

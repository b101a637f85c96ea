import type { ImportJobOut } from "@coffer/protocol";
import { ImportNotFound } from "../../domain/vault-errors.js";
import { iso } from "../presenters.js";

export interface ImportProgress {
  readonly done: number;
  readonly total: number;
}

/** An import as the page polls it, under the wire's names (times in epoch ms until they are sent). */
interface Job {
  id: string;
  kb_id: string;
  path: string;
  status: "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
  imported: number;
  skipped: { filename: string; reason: string }[];
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

const KEEP = 100;

/** Imports in flight and recently finished, in memory: a client polls one until it is done. */
export class ImportJobs {
  private readonly jobs = new Map<string, Job>();

  start(id: string, kbId: string, path: string, total: number, now: number): Job {
    const job: Job = { id, kb_id: kbId, path, status: "queued", done: 0, total, imported: 0, skipped: [], error: null, started_at: now, finished_at: null };
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

export function toJobOut({ skipped, started_at, finished_at, ...job }: Job): ImportJobOut {
  return { ...job, skipped: [...skipped], started_at: iso(started_at), finished_at: finished_at === null ? null : iso(finished_at) };
}

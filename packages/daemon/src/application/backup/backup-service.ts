import type { BackupOut, BackupRequest, BackupStatusOut } from "@coffer/protocol";
import { DomainError } from "../../domain/errors.js";
import type { Clock, Logger } from "../ports.js";
import type { BackupRecord, BackupWriter, SnapshotFolder } from "./ports.js";

export const HOUR_MS = 3_600_000;
/** A timer longer than this overflows setTimeout (about 24.8 days); a longer wait is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface BackupSchedule {
  /** Between scheduled snapshots; 0 = none (COFFER_BACKUP_EVERY_HOURS). */
  readonly everyMs: number;
  /** Snapshots kept in the folder, newest first; 0 = never delete (COFFER_BACKUP_KEEP). */
  readonly keep: number;
  /**
   * The first scheduled snapshot after a start that finds none due sooner: a daemon that is
   * restarted often still gets one, without every start (or every test daemon) writing one.
   */
  readonly firstDelayMs: number;
}

export interface BackupServiceDeps {
  readonly writer: BackupWriter;
  readonly folder: SnapshotFolder;
  readonly schedule: BackupSchedule;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Told after each snapshot written into the folder (the page's Data section re-reads its status). */
  readonly onSnapshot?: (record: BackupRecord) => void;
}

export const backupOut = (r: BackupRecord): BackupOut => ({ path: r.path, size_bytes: r.sizeBytes, created_at: r.createdAt, key_included: r.keyIncluded });

/**
 * Backups while the daemon runs: "Back up now" (the page, `coffer backup`) and the scheduled
 * snapshots, one at a time, into the snapshot folder (rotated to `keep`) or to a path the
 * owner names (never rotated).
 */
export class BackupService {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dueAt: number | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private inFlight = 0;
  private lastError: { message: string; at: number } | null = null;
  private stopped = false;

  constructor(private readonly d: BackupServiceDeps) {}

  status(): BackupStatusOut {
    const last = this.d.folder.list()[0];
    return {
      folder: this.d.folder.folder,
      keep: this.d.schedule.keep,
      every_hours: this.d.schedule.everyMs / HOUR_MS,
      last: last ? backupOut(last) : null,
      next_due_at: this.dueAt,
      running: this.inFlight > 0,
      last_error: this.lastError,
    };
  }

  /** One backup now; waits for one already being written (they never overlap). */
  backupNow(request: BackupRequest = {}): Promise<BackupOut> {
    const withoutKey = request.without_key === true;
    return this.serial(async () => {
      const now = this.d.clock.now();
      if (request.path !== undefined) {
        return backupOut(await this.d.writer.write(this.d.folder.resolveTarget(request.path, now, withoutKey), { withoutKey, now }));
      }
      return backupOut(await this.snapshot(now, withoutKey));
    });
  }

  /** Arms the schedule (nothing when every is 0). */
  start(): void {
    if (this.d.schedule.everyMs <= 0 || this.stopped) return;
    const now = this.d.clock.now();
    const last = this.d.folder.list()[0];
    this.arm(Math.max(last ? last.createdAt + this.d.schedule.everyMs : 0, now + this.d.schedule.firstDelayMs));
  }

  /** Stops the schedule and waits for a backup being written. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dueAt = null;
    await this.chain;
  }

  private arm(at: number): void {
    if (this.stopped) return;
    this.dueAt = at;
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(at - this.d.clock.now(), MAX_TIMER_MS));
    this.timer = setTimeout(() => void this.fire(), wait);
    // A pending snapshot never keeps the process alive.
    this.timer.unref?.();
  }

  private async fire(): Promise<void> {
    this.timer = null;
    if (this.dueAt !== null && this.d.clock.now() < this.dueAt) return this.arm(this.dueAt); // a long wait, re-armed
    try {
      await this.serial(() => this.snapshot(this.d.clock.now(), false));
      this.lastError = null;
    } catch (err) {
      const message = err instanceof DomainError || err instanceof Error ? err.message : String(err);
      this.lastError = { message, at: this.d.clock.now() };
      this.d.logger.warn("the scheduled backup failed; the next one is tried on schedule", { err: message, folder: this.d.folder.folder });
    }
    this.arm(this.d.clock.now() + this.d.schedule.everyMs);
  }

  /** A snapshot into the folder, then the folder rotated to `keep`. */
  private async snapshot(now: number, withoutKey: boolean): Promise<BackupRecord> {
    const record = await this.d.writer.write(this.d.folder.pathFor(now, withoutKey), { withoutKey, now });
    if (this.d.schedule.keep > 0) {
      for (const old of this.d.folder.list().slice(this.d.schedule.keep)) {
        try {
          this.d.folder.remove(old.path);
        } catch (err) {
          this.d.logger.warn("an old snapshot could not be removed", { path: old.path, err: String(err) });
        }
      }
    }
    this.d.logger.info("backup written", { path: record.path, bytes: record.sizeBytes });
    this.d.onSnapshot?.(record);
    return record;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    const run = this.chain.then(work);
    // The chain itself never rejects: a failed backup is its caller's answer, not the next one's.
    this.chain = run.then(
      () => void (this.inFlight -= 1),
      () => void (this.inFlight -= 1),
    );
    return run;
  }
}

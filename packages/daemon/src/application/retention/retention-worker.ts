import type { AuditActor } from "@coffer/protocol";
import { ConversationNotFound } from "../../domain/errors.js";
import type { AuditSink } from "../credentials/ports.js";
import type { Clock, Logger } from "../ports.js";
import type { RetentionCandidates } from "./ports.js";
import type { RetentionSettings } from "./retention-settings.js";

export const DAY_MS = 86_400_000;
/** Per stage per pass; whatever is left waits for the next pass. */
const BATCH = 500;

/**
 * SQLite work is synchronous: give the event loop a turn between conversations, so a pass
 * with a large backlog (the first start after a long absence) never holds up requests.
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface RetentionWorkerDeps {
  readonly settings: RetentionSettings;
  readonly candidates: RetentionCandidates;
  readonly conversations: {
    archive(id: string): unknown;
    delete(id: string, actor: AuditActor): Promise<void>;
  };
  /** A conversation with a turn in flight is never touched. */
  readonly isRunning: (conversationId: string) => boolean;
  readonly audit: AuditSink;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Other bounded logs pruned on the same schedule (the MCP invocation log); returns rows removed. */
  readonly pruneLogs?: () => number;
  /** Files uploaded but never sent with a message, past their grace period; returns how many went. */
  readonly sweepUnsent?: () => number;
}

export interface RetentionPass {
  readonly archived: number;
  readonly deleted: number;
  /** Candidates left alone because a turn was running or messages were queued. */
  readonly skipped: number;
}

/**
 * The two-stage conversation lifecycle: idle conversations are archived (reversible), archived
 * ones are deleted with their messages after the second window. Runs at start and then on
 * an interval; passes never overlap.
 */
export class RetentionWorker {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<RetentionPass> | null = null;

  constructor(private readonly deps: RetentionWorkerDeps) {}

  /** One pass now (or the pass already under way). */
  runOnce(): Promise<RetentionPass> {
    return (this.running ??= this.pass().finally(() => (this.running = null)));
  }

  /** Run now, then every `intervalMs` (0 = only at start). */
  start(intervalMs: number): void {
    const run = () =>
      void this.runOnce().catch((err: unknown) => this.deps.logger.error("retention pass failed", { err: String(err) }));
    run();
    if (intervalMs > 0) {
      this.timer = setInterval(run, intervalMs);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<RetentionPass> {
    const { settings, candidates, conversations, clock, logger } = this.deps;
    const windows = settings.get();
    const now = clock.now();
    let archived = 0;
    let deleted = 0;
    let skipped = 0;
    const busy = (id: string) => this.deps.isRunning(id) || candidates.hasQueuedMessages(id);

    if (windows.archive_after_days !== null) {
      for (const id of candidates.idleSince(now - windows.archive_after_days * DAY_MS, BATCH)) {
        await breathe();
        if (busy(id)) skipped += 1;
        else {
          conversations.archive(id);
          archived += 1;
        }
      }
    }
    if (windows.delete_after_days !== null) {
      for (const id of candidates.archivedBefore(now - windows.delete_after_days * DAY_MS, BATCH)) {
        await breathe();
        // Checked right before each delete: a turn may have started while an earlier one was removed.
        if (busy(id)) skipped += 1;
        else if (await this.remove(id)) deleted += 1;
      }
    }
    const pruned = this.deps.pruneLogs?.() ?? 0;
    if (pruned) logger.info("log rows pruned", { rows: pruned });
    const unsent = this.deps.sweepUnsent?.() ?? 0;
    if (unsent) logger.info("unsent uploads removed", { attachments: unsent });
    if (archived || deleted) {
      this.deps.audit("retention", "retention_pass", { archived, deleted, skipped, ...windows }, clock.now());
      logger.info("retention pass", { archived, deleted, skipped });
    }
    return { archived, deleted, skipped };
  }

  /** False when the owner deleted it first (between the query and now). */
  private async remove(id: string): Promise<boolean> {
    try {
      await this.deps.conversations.delete(id, "retention");
      return true;
    } catch (err) {
      if (err instanceof ConversationNotFound) return false;
      throw err;
    }
  }
}

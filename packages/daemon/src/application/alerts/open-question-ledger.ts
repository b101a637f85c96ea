import type { SettingsStore } from "../retention/ports.js";

/** One open question as the ledger keeps it: enough to tell the owner it was lost. */
export interface LedgerEntry {
  readonly conversation_id: string;
  readonly question_id: string;
  readonly asked_at: number;
  readonly detail: string | null;
}

const KEY = "questions_open";

/**
 * The open questions, stored (one JSON value in the settings table — a handful at most, so no
 * table of its own). A question lives in memory with its turn and a restart ends the turn, so
 * what this holds at start is exactly the questions a restart took: the owner is told of each
 * once, then the ledger is cleared (docs/decisions.md, "the morning brief … questions re-armed").
 */
export class OpenQuestionLedger {
  constructor(
    private readonly store: SettingsStore,
    private readonly now: () => number,
  ) {}

  list(): LedgerEntry[] {
    const raw: unknown = this.store.get(KEY);
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (e): e is LedgerEntry => !!e && typeof e === "object" && typeof (e as LedgerEntry).conversation_id === "string" && typeof (e as LedgerEntry).question_id === "string" && typeof (e as LedgerEntry).asked_at === "number",
    );
  }

  add(entry: LedgerEntry): void {
    this.write([...this.list().filter((e) => !same(e, entry.conversation_id, entry.question_id)), entry]);
  }

  remove(conversationId: string, questionId: string): void {
    const all = this.list();
    const kept = all.filter((e) => !same(e, conversationId, questionId));
    if (kept.length !== all.length) this.write(kept);
  }

  /** Everything it held, and empty after. */
  take(): LedgerEntry[] {
    const all = this.list();
    if (all.length) this.write([]);
    return all;
  }

  private write(entries: LedgerEntry[]): void {
    this.store.set(KEY, entries, this.now());
  }
}

const same = (e: LedgerEntry, conversationId: string, questionId: string) => e.conversation_id === conversationId && e.question_id === questionId;

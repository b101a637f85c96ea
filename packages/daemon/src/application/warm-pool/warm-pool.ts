import type { Clock } from "../ports.js";
import type { WarmLease, WarmProcess, WarmProcesses, WarmPurpose, WarmSlot } from "./warm-pool-ports.js";

/** What the pool knows of one warm process (GET /system/stats). */
export interface WarmEntryInfo {
  readonly agentKey: string;
  readonly conversationId: string | null;
  readonly pid: number | undefined;
  readonly busy: boolean;
  /** When it was last used (ms since epoch): idle since then when not busy. */
  readonly lastUsedAt: number;
}

interface Entry {
  readonly process: WarmProcess;
  /** Monotonic use order: ties in the wall clock must not blur least-recently-used. */
  order: number;
  lastUsedAt: number;
}

/** Default cap; docs/decisions.md ("Speed and footprint (issue 16)") says how it was chosen. */
export const DEFAULT_MAX_WARM_AGENTS = 4;

/**
 * The bounded warm pool: at most `cap` agent processes stay warm across every agent. The
 * idle timeout of each agent still applies; on top of it, when a new process needs room,
 * the least recently used idle one is evicted. A busy process (a turn running, or waiting on
 * the owner's answer) is never evicted: a turn that finds every process busy starts over the
 * cap and the pool trims back when turns end; a pre-warm is skipped instead.
 */
export class WarmPool implements WarmProcesses {
  private readonly entries = new Set<Entry>();
  /** Slots handed out whose process has not started yet: they count against the cap. */
  private reserved = 0;
  private uses = 0;

  constructor(
    readonly cap: number,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`the warm pool cap must be a positive integer, got ${cap}`);
  }

  get size(): number {
    return this.entries.size;
  }

  list(): WarmEntryInfo[] {
    return [...this.entries]
      .sort((a, b) => b.order - a.order)
      .map((e) => ({
        agentKey: e.process.agentKey,
        conversationId: e.process.conversationId,
        pid: e.process.pid,
        busy: e.process.busy,
        lastUsedAt: e.lastUsedAt,
      }));
  }

  async slot(purpose: WarmPurpose): Promise<WarmSlot | null> {
    // Decided synchronously, so two callers racing for the last place cannot both take it.
    const victims: Entry[] = [];
    let over = this.entries.size + this.reserved + 1 - this.cap;
    for (const entry of this.idleByAge()) {
      if (over <= 0) break;
      victims.push(entry);
      this.entries.delete(entry);
      over--;
    }
    if (over > 0 && purpose === "prewarm") {
      // Every place is busy: a pre-warm never pushes the pool past its cap. The idle ones
      // picked above stay (nothing is evicted for a process that will not start).
      for (const v of victims) this.entries.add(v);
      return null;
    }
    this.reserved++;
    await Promise.all(victims.map((v) => v.process.evict().catch(() => undefined)));
    let open = true;
    const release = () => {
      if (!open) return false;
      open = false;
      this.reserved--;
      return true;
    };
    return {
      fill: (process) => {
        if (!release()) throw new Error("this warm slot was already used");
        return this.add(process);
      },
      cancel: () => void release(),
    };
  }

  private add(process: WarmProcess): WarmLease {
    const entry: Entry = { process, order: ++this.uses, lastUsedAt: this.clock.now() };
    this.entries.add(entry);
    return {
      touch: () => {
        entry.order = ++this.uses;
        entry.lastUsedAt = this.clock.now();
      },
      idle: () => this.trim(),
      gone: () => void this.entries.delete(entry),
    };
  }

  /** Over the cap (turns started while every process was busy): evict idle ones, oldest first. */
  private trim(): void {
    let over = this.entries.size + this.reserved - this.cap;
    for (const entry of this.idleByAge()) {
      if (over <= 0) return;
      this.entries.delete(entry);
      void entry.process.evict().catch(() => undefined);
      over--;
    }
  }

  private idleByAge(): Entry[] {
    return [...this.entries].filter((e) => !e.process.busy).sort((a, b) => a.order - b.order);
  }
}

/** `COFFER_MAX_WARM_AGENTS`: a positive integer, else the default. */
export function maxWarmAgents(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_MAX_WARM_AGENTS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`COFFER_MAX_WARM_AGENTS must be a positive integer, got "${raw}"`);
  return n;
}

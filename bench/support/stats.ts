/** Small helpers the benches share: percentiles, timing loops, aligned tables. */

export interface Summary {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Milliseconds since an origin, sub-millisecond resolution. */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Run `fn` `warmup` times untimed, then `runs` times timed; returns per-run milliseconds. */
export async function timeRuns(runs: number, warmup: number, fn: (i: number) => unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = nowMs();
    await fn(i);
    out.push(nowMs() - t0);
  }
  return out;
}

export function ms(v: number): string {
  if (!Number.isFinite(v)) return "n/a";
  return v < 1 ? `${v.toFixed(3)} ms` : `${v.toFixed(2)} ms`;
}

export function ratio(ours: number, floor: number): string {
  return floor > 0 && Number.isFinite(ours) ? `${(ours / floor).toFixed(1)}×` : "n/a";
}

/** A plain left-aligned table: first row is the header. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd()).join("\n");
}

export function verdict(ok: boolean): string {
  return ok ? "PASS" : "FAIL";
}

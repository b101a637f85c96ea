/**
 * What the soak makes of its samples: each figure's floor (its level once warmed up), its
 * growth per hour after the floor, and whether that growth is steady or noise.
 *
 * Growth per hour is the least-squares slope over every sample after the floor window. It is a
 * steady growth — a leak — only when BOTH hold (docs/decisions.md, "The soak"):
 *   - it is more than `maxPercentPerHour` of the floor's mean per hour, and
 *   - the rise the slope draws across the post-floor window is larger than the floor window's
 *     own spread (max − min): a figure that only wanders inside the band it already showed
 *     while warming up (the WAL between checkpoints, GC sawtooth, watchers coming and going)
 *     is noise, not growth.
 */

export interface Sample {
  /** Milliseconds since the mix started. */
  readonly atMs: number;
  readonly values: Readonly<Record<string, number>>;
}

export interface Growth {
  readonly metric: string;
  readonly floorMean: number;
  readonly floorSpread: number;
  readonly last: number;
  /** Units per hour (bytes, descriptors, subscribers). */
  readonly perHour: number;
  /** perHour as a percentage of the floor's mean (Infinity when the floor is 0 and it grows). */
  readonly percentPerHour: number;
  /** The rise the slope draws over the post-floor window. */
  readonly rise: number;
  readonly steady: boolean;
}

export const DEFAULT_MAX_PERCENT_PER_HOUR = 10;

/** Least-squares slope of y over x (units of y per unit of x); 0 with fewer than two points. */
export function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export function growth(samples: readonly Sample[], metric: string, floorMs: number, maxPercentPerHour = DEFAULT_MAX_PERCENT_PER_HOUR): Growth {
  const floor = samples.filter((s) => s.atMs <= floorMs).map((s) => s.values[metric]!);
  const after = samples.filter((s) => s.atMs >= floorMs).map((s) => [s.atMs, s.values[metric]!] as const);
  const floorMean = floor.length ? floor.reduce((a, b) => a + b, 0) / floor.length : 0;
  const floorSpread = floor.length ? Math.max(...floor) - Math.min(...floor) : 0;
  const perMs = slope(after);
  const perHour = perMs * 3_600_000;
  const span = after.length ? after[after.length - 1]![0] - after[0]![0] : 0;
  const rise = perMs * span;
  const percentPerHour = floorMean > 0 ? (perHour / floorMean) * 100 : perHour > 0 ? Number.POSITIVE_INFINITY : 0;
  return {
    metric,
    floorMean,
    floorSpread,
    last: samples.at(-1)?.values[metric] ?? 0,
    perHour,
    percentPerHour,
    rise,
    steady: percentPerHour > maxPercentPerHour && rise > floorSpread,
  };
}

/**
 * Cron timetables read in a time zone (infrastructure/cron, on croner). A port so the application
 * never parses cron itself and the scheduler's tests can trust one well-kept parser.
 */
export interface CronTimetable {
  /** Why the expression or the zone cannot be used, or null when both are fine. */
  problem(expression: string, zone: string): { readonly field: "when" | "zone"; readonly why: string } | null;
  /** The first due time strictly after `after` (epoch ms), or null when it never runs again. */
  nextAfter(expression: string, zone: string, after: number): number | null;
}

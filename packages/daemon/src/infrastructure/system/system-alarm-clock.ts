import type { AlarmClock } from "../../application/timing/alarm-ports.js";

/**
 * Node timers count monotonic time, which stops while the machine sleeps: a 07:00 alarm armed at
 * 23:00 as one 8-hour setTimeout would fire hours late after a night in suspend. So a long wait is
 * cut into steps of at most STEP_MS and the wall clock is read again at each step; the alarm fires
 * at the first step at or after its time (at most one step late after a sleep). Timers are unref'd:
 * an alarm never keeps the process alive.
 */
const STEP_MS = 30_000;

export function systemAlarmClock(now: () => number = Date.now, stepMs = STEP_MS): AlarmClock {
  return {
    now,
    at(when, fire) {
      let timer: ReturnType<typeof setTimeout> | null = null;
      let cancelled = false;
      const arm = (): void => {
        if (cancelled) return;
        const wait = when - now();
        if (wait <= 0) {
          timer = null;
          fire();
          return;
        }
        timer = setTimeout(arm, Math.min(wait, stepMs));
        timer.unref();
      };
      arm();
      return () => {
        cancelled = true;
        if (timer) clearTimeout(timer);
      };
    },
  };
}

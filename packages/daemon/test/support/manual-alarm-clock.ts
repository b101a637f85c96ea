import type { AlarmClock } from "../../src/application/timing/alarm-ports.js";

/**
 * An AlarmClock the test moves by hand: `advanceTo` / `advanceBy` move the wall clock and fire every
 * alarm now due, earliest first (alarms armed while firing are honoured in the same move). A jump
 * over many due times models a machine waking from sleep: each alarm fires once.
 */
export class ManualAlarmClock implements AlarmClock {
  private alarms: { when: number; fire: () => void; seq: number }[] = [];
  private seq = 0;

  constructor(private ms: number) {}

  now = (): number => this.ms;

  at(when: number, fire: () => void): () => void {
    const alarm = { when, fire, seq: this.seq++ };
    this.alarms.push(alarm);
    return () => {
      this.alarms = this.alarms.filter((a) => a !== alarm);
    };
  }

  /** How many alarms are armed (a test can assert nothing is left waiting). */
  get pending(): number {
    return this.alarms.length;
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.ms + ms);
  }

  advanceTo(target: number): void {
    for (;;) {
      const due = this.alarms.filter((a) => a.when <= target).sort((a, b) => a.when - b.when || a.seq - b.seq)[0];
      if (!due) break;
      this.alarms = this.alarms.filter((a) => a !== due);
      this.ms = Math.max(this.ms, due.when);
      due.fire();
    }
    this.ms = Math.max(this.ms, target);
  }

  /**
   * The machine slept until `target`: the wall clock jumps there first, then every alarm now due
   * fires once, seeing the new time (what SystemAlarmClock does on wake) — unlike `advanceTo`,
   * where each alarm sees its own time, as if the machine had been awake.
   */
  wakeAt(target: number): void {
    this.ms = Math.max(this.ms, target);
    this.advanceTo(target);
  }
}

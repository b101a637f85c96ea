import { describe, expect, it } from "vitest";
import { systemAlarmClock } from "./system-alarm-clock.js";

describe("systemAlarmClock", () => {
  it("fires an alarm whose time has passed at once, exactly once", async () => {
    const clock = systemAlarmClock();
    let fired = 0;
    await new Promise<void>((resolve) => {
      clock.at(clock.now() - 1000, () => {
        fired++;
        resolve();
      });
    });
    await new Promise<void>((resolve) => clock.at(clock.now() + 10, resolve));
    expect(fired).toBe(1);
  });

  it("reads the wall clock at every step, so an alarm hours away fires soon after the clock jumps past it (a machine waking)", async () => {
    let wall = 1_000_000;
    const clock = systemAlarmClock(() => wall, 5);
    const due = wall + 8 * 3_600_000;
    const fired = new Promise<number>((resolve) => clock.at(due, () => resolve(wall)));
    wall += 9 * 3_600_000; // the night passed while monotonic timers were frozen
    expect(await fired).toBeGreaterThanOrEqual(due);
  });

  it("a cancelled alarm never fires", async () => {
    const clock = systemAlarmClock();
    let fired = false;
    const cancel = clock.at(clock.now() + 5, () => {
      fired = true;
    });
    cancel();
    await new Promise<void>((resolve) => clock.at(clock.now() + 30, resolve));
    expect(fired).toBe(false);
  });
});

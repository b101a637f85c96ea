/**
 * One bench/schedules daemon in its own process (forked by idle-cpu.ts), so its idle CPU is its
 * own: not the bench's HTTP client, not the other daemon. It says where it listens, answers
 * "cpu" with its process.cpuUsage(), and closes on "close". Nothing here runs on a timer.
 */
import { startTestDaemon } from "../../packages/daemon/test/support/test-daemon.js";

type Ask = { readonly kind: "cpu" } | { readonly kind: "close" };

const t = await startTestDaemon({ timeZone: "UTC" });
process.on("message", (ask: Ask) => {
  if (ask.kind === "cpu") {
    const u = process.cpuUsage();
    process.send?.({ kind: "cpu", micros: u.user + u.system });
  } else {
    void t.close().finally(() => process.disconnect());
  }
});
process.send?.({ kind: "ready", url: t.daemon.url, token: t.daemon.token });

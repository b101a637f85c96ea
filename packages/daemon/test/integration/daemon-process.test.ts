import { rm } from "node:fs/promises";
import { expect, test } from "vitest";
import { makeHome } from "../support/test-daemon.js";
import { spawnDaemon } from "../support/spawn-daemon.js";

test("a daemon in its own process answers health and stops cleanly on SIGTERM", async () => {
  const home = await makeHome();
  const d = await spawnDaemon(home);
  const res = await fetch(`${d.url}/api/v1/health`, { headers: { authorization: `Bearer ${d.token}` } });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { pid: number }).pid).toBe(d.pid);
  d.child.kill("SIGTERM");
  expect(await d.exited).toBe(0);
  await rm(home, { recursive: true, force: true });
});

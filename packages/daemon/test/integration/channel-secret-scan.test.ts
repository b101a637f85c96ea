/**
 * Every secret credential of every registered channel platform — the names taken from what the
 * adapters declare (GET /channel-kinds), the values from each platform's scan entry — must never
 * reach the data dir (the SQLite file and its WAL, the log, a backup), a log line or any HTTP
 * response. One daemon speaks every platform at once; each channel is driven through every path
 * that carries its credentials (add, a refused credential, pairing, turns, rate limits, 5xx,
 * dropped connections, a revoked credential) with the log at debug level, then everything is
 * scanned for each secret in plain, hex, base64 and URL-encoded form. A platform registered
 * without a scan entry fails the test.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { forms, RecordingApi, scanDir } from "../support/secret-scan.js";
import { SCAN_PLATFORMS, type ScanFake } from "../support/secret-scan-platforms.js";

interface DeclaredKind {
  kind: string;
  credentials: { name: string; secret: boolean }[];
}

let t: TestDaemon | null = null;
const fakes: ScanFake[] = [];
afterEach(async () => {
  await t?.close();
  t = null;
  for (const f of fakes.splice(0)) await f.close();
});

acceptance("026-second-platform", "the token/secret scan covers every credential of both platforms in the data dir, the log and every response", async () => {
  const home = await makeHome();
  const log = join(home, "daemon.log");
  const started = new Map<string, ScanFake>();
  for (const [kind, platform] of Object.entries(SCAN_PLATFORMS)) {
    const fake = await platform.start();
    fakes.push(fake);
    started.set(kind, fake);
  }
  t = await startTestDaemon({
    home,
    ...Object.assign({}, ...[...started.values()].map((f) => f.daemonOptions)),
    logger: consoleLogger("debug", (line) => appendFileSync(log, line)),
  });
  const api = new RecordingApi(t.daemon.url, t.daemon.token);

  const { kinds } = (await api.get("/channel-kinds")).body as { kinds: DeclaredKind[] };
  // Every platform the daemon speaks has a scan entry: a new one cannot slip past the scan.
  expect(kinds.map((k) => k.kind).sort()).toEqual([...started.keys()].sort());

  const secrets: string[] = [];
  for (const { kind, credentials } of kinds) {
    const fake = started.get(kind)!;
    expect(credentials.some((c) => c.secret), `${kind} declares a secret`).toBe(true);
    const good: Record<string, string> = {};
    const refused: Record<string, string> = {};
    for (const c of credentials) {
      const value = fake.credential(c.name);
      expect((await api.put(`/credentials/${kind}-${c.name}`, { secret: value.good })).status).toBe(200);
      good[c.name] = `${kind}-${c.name}`;
      refused[c.name] = good[c.name]!;
      if (c.secret) {
        secrets.push(value.good);
        if (value.refused) {
          secrets.push(value.refused);
          expect((await api.put(`/credentials/${kind}-${c.name}-refused`, { secret: value.refused })).status).toBe(200);
          refused[c.name] = `${kind}-${c.name}-refused`;
        }
      }
    }
    // A credential the platform refuses: a 4xx naming the ref, never the value; nothing stored.
    const no = await api.post("/channels", { kind, name: `${kind}-refused`, credentials: refused, default_agent: "scripted" });
    expect(no.status, JSON.stringify(no.body)).toBeGreaterThanOrEqual(400);
    expect(no.status).toBeLessThan(500);
    const yes = await api.post("/channels", { kind, name: `${kind}-scan`, credentials: good, default_agent: "scripted" });
    expect(yes.status, JSON.stringify(yes.body)).toBe(201);
    await fake.exercise(api, yes.body.id as string);
    await api.get(`/channels/${yes.body.id}`);
  }
  await api.get("/channels");
  await api.get("/audit");
  await api.get("/credentials");
  // A backup holds the database (gzipped): the scan inflates it.
  expect((await api.post("/settings/backups", {})).status).toBe(201);

  const needles = secrets.flatMap(forms);
  expect(api.leaks(needles)).toEqual([]);
  // Not vacuous: each platform received its secrets…
  for (const [kind, fake] of started) {
    const declared = kinds.find((k) => k.kind === kind)!.credentials.filter((c) => c.secret);
    for (const c of declared) expect(fake.saw(fake.credential(c.name).good), `${kind} ${c.name}`).toBe(true);
  }
  // …and the log was written through the failure paths: each revoked channel logged its stop.
  expect(readFileSync(log, "utf8").match(/"msg":"channel stopped"/g)).toHaveLength(started.size);
  expect(scanDir(home, needles)).toEqual([]);
  await t.stop();
  // After shutdown the WAL is checkpointed into the database file: scanned again.
  expect(scanDir(home, needles)).toEqual([]);
}, 60_000);

test("the scan finds a secret in each place it looks (control)", async () => {
  const dir = await makeHome();
  const secret = "9191:AAF-control-secret-AbCdEfGh";
  const { gzipSync } = await import("node:zlib");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(join(dir, "leak.log"), `GET /bot${encodeURIComponent(secret)}/getMe\n`);
  writeFileSync(join(dir, "b64.bin"), Buffer.from(secret).toString("base64"));
  writeFileSync(join(dir, "backup.tar.gz"), gzipSync(Buffer.from(`db bytes ${secret.split(":")[1]} more`)));
  expect([...new Set(scanDir(dir, forms(secret)).map((h) => h.split(":")[0]))].sort()).toEqual(["b64.bin", "backup.tar.gz", "leak.log"]);
  const api = new RecordingApi("http://127.0.0.1:9", "x");
  api.seen.push(`GET /x 200 [] {"token":"${secret}"}`);
  expect(api.leaks(forms(secret))).toContain(secret);
});

/**
 * Issue 21 (Hardening II), W1: the credentials key sat in `<data dir>/credentials.key`, beside
 * the database it unlocks. Where an OS keyring exists it now lives there, with the 0600 file as
 * the fallback. Real daemon, real HTTP, real SQLite; a credential's round trip is proven by
 * listing models from a fake OpenAI server that accepts only that secret.
 *
 * Mocked: the keyring. A real Secret Service (GNOME Keyring, KWallet) needs a desktop session
 * and no provider is installed here, so `secret-tool` is a stand-in shell script placed first
 * on the daemon's PATH: it keeps each entry in a file of its own temp folder and writes down
 * every command line it was given, so the test can check the key never went on one.
 */
import { chmodSync, existsSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeOpenAiLlm } from "../fakes/llm-fake-openai.js";
import { acceptance } from "../support/acceptance.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { cleanupAfterEach } from "../support/cleanup.js";

const SECRET = "sk-keyring-roundtrip-5be1";
const KEY_FILE = "credentials.key";
const MARKER = "credentials.key.keyring";

let llm: FakeOpenAiLlm;
beforeAll(async () => {
  llm = await FakeOpenAiLlm.start({ apiKey: SECRET, models: ["m-1"] });
});
afterAll(() => llm.close());

const { cleanup, tempDir } = cleanupAfterEach();

interface StubKeyring {
  readonly bin: string;
  /** Every command line secret-tool was run with, one per line. */
  argv(): string[];
  /** The stored entries: account → what was stored. */
  entries(): Record<string, string>;
  drop(account: string): void;
}

/** The stand-in `secret-tool` (see the header): store reads stdin, lookup prints, exit 1 when absent. */
function stubKeyring(): StubKeyring {
  const bin = tempDir("coffer-keyring-bin-");
  const store = tempDir("coffer-keyring-store-");
  writeFileSync(
    join(bin, "secret-tool"),
    `#!/bin/sh
printf '%s\\n' "$*" >> '${store}/argv.log'
cmd=$1; shift
account=''
while [ $# -gt 0 ]; do
  case "$1" in account) account=$2; shift 2 ;; *) shift ;; esac
done
case "$cmd" in
  store) cat > '${store}/entry-'"$account" ;;
  lookup) [ -f '${store}/entry-'"$account" ] || exit 1; cat '${store}/entry-'"$account" ;;
  *) echo "usage" >&2; exit 2 ;;
esac
`,
  );
  chmodSync(join(bin, "secret-tool"), 0o755);
  const log = join(store, "argv.log");
  return {
    bin,
    argv: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
    entries: () =>
      Object.fromEntries(readdirSync(store).filter((n) => n.startsWith("entry-")).map((n) => [n.slice("entry-".length), readFileSync(join(store, n), "utf8")])),
    drop: (account) => rmSync(join(store, `entry-${account}`)),
  };
}

/** The daemon's environment: the stub first on PATH and, unless `bus` is false, a session bus address. */
function keyringEnv(keyring: StubKeyring, extra: { bus?: boolean } = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${keyring.bin}:${process.env.PATH}` };
  if (extra.bus === false) delete env.DBUS_SESSION_BUS_ADDRESS;
  else env.DBUS_SESSION_BUS_ADDRESS = "unix:path=/run/user/0/bus-of-the-test";
  return env;
}

async function daemon(home: string, env: NodeJS.ProcessEnv, keyring: "auto" | "off" = "auto"): Promise<TestDaemon> {
  const t = await startTestDaemon({ home, env, keyring });
  cleanup.push(() => t.stop());
  return t;
}

/** Uses the stored credential: the fake lists its models only for the right secret. */
async function roundTrip(t: TestDaemon, ref = "llm.key") {
  return t.api.post("/models/list-models", { wire: "openai", base_url: llm.baseUrl, credential_ref: ref });
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe("where the credentials key lives", () => {
  acceptance("021-hardening", "the credentials key is kept in the OS keyring where one exists, with the private file as the fallback", async () => {
    const keyring = stubKeyring();
    const home = await makeHome();
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const env = keyringEnv(keyring);

    const first = await daemon(home, env);
    expect((await first.api.put("/credentials/llm.key", { secret: SECRET })).status).toBe(200);
    expect(existsSync(join(home, KEY_FILE))).toBe(false); // nothing beside the database
    expect(mode(join(home, MARKER))).toBe(0o600);
    const marker = JSON.parse(readFileSync(join(home, MARKER), "utf8"));
    expect(marker).toEqual({ service: "coffer", account: expect.stringMatching(/^data-dir-[0-9a-f]{16}$/) });
    const stored = keyring.entries()[marker.account]!;
    expect(Buffer.from(stored.trim(), "base64")).toHaveLength(32);
    expect(readFileSync(join(home, MARKER), "utf8")).not.toContain(stored.trim());
    expect((await roundTrip(first)).body).toMatchObject({ models: ["m-1"] });
    await first.stop();

    // A new daemon on the same data dir finds the key in the keyring and opens the credential.
    const second = await daemon(home, env);
    expect(await roundTrip(second)).toMatchObject({ status: 200, body: { models: ["m-1"] } });
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
    const calls = keyring.argv();
    expect(calls.map((c) => c.split(" ")[0])).toEqual(["store", "lookup", "lookup"]); // made, read back; then read once by the new daemon
    for (const call of calls) expect(call).not.toContain(stored.trim()); // the key only ever went on stdin and stdout
    expect(calls[0]).toContain(`service coffer account ${marker.account}`);

    // COFFER_KEYRING=off: a fresh data dir keeps its key in the 0600 file, the keyring is not asked.
    const offHome = await makeHome();
    cleanup.push(() => rmSync(offHome, { recursive: true, force: true }));
    const off = await daemon(offHome, env, "off");
    expect((await off.api.put("/credentials/llm.key", { secret: SECRET })).status).toBe(200);
    expect(mode(join(offHome, KEY_FILE))).toBe(0o600);
    expect(existsSync(join(offHome, MARKER))).toBe(false);
    expect(keyring.argv()).toHaveLength(calls.length);
  });

  test("a data dir that already has credentials.key keeps using it, keyring or not (no silent move)", async () => {
    const keyring = stubKeyring();
    const home = await makeHome();
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const before = await daemon(home, keyringEnv(keyring, { bus: false })); // no session bus: the file
    expect((await before.api.put("/credentials/llm.key", { secret: SECRET })).status).toBe(200);
    const keyText = readFileSync(join(home, KEY_FILE), "utf8");
    await before.stop();

    const after = await daemon(home, keyringEnv(keyring));
    expect(await roundTrip(after)).toMatchObject({ status: 200, body: { models: ["m-1"] } });
    expect((await after.api.put("/credentials/other", { secret: "x" })).status).toBe(200);
    expect(readFileSync(join(home, KEY_FILE), "utf8")).toBe(keyText);
    expect(existsSync(join(home, MARKER))).toBe(false);
    expect(keyring.argv()).toEqual([]);
  });

  test("a keyring that refuses a new key leaves it in the 0600 file; one that lost its key answers 503 CREDENTIALS_KEY_UNAVAILABLE and makes no new key", async () => {
    const refusing = tempDir("coffer-keyring-refuses-");
    writeFileSync(join(refusing, "secret-tool"), "#!/bin/sh\necho 'Cannot create an item in a locked collection' >&2\nexit 1\n");
    chmodSync(join(refusing, "secret-tool"), 0o755);
    const fallbackHome = await makeHome();
    cleanup.push(() => rmSync(fallbackHome, { recursive: true, force: true }));
    const fallback = await daemon(fallbackHome, { ...keyringEnv(stubKeyring()), PATH: `${refusing}:${process.env.PATH}` });
    expect((await fallback.api.put("/credentials/llm.key", { secret: SECRET })).status).toBe(200);
    expect(mode(join(fallbackHome, KEY_FILE))).toBe(0o600);
    expect(existsSync(join(fallbackHome, MARKER))).toBe(false);
    expect(await roundTrip(fallback)).toMatchObject({ status: 200 });

    const keyring = stubKeyring();
    const home = await makeHome();
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const first = await daemon(home, keyringEnv(keyring));
    expect((await first.api.put("/credentials/llm.key", { secret: SECRET })).status).toBe(200);
    await first.stop();
    const { account } = JSON.parse(readFileSync(join(home, MARKER), "utf8"));
    keyring.drop(account); // the entry was removed from the keyring (or it is another session's)

    // COFFER_KEYRING=off does not override the marker: the credentials were sealed with the keyring's key.
    const second = await daemon(home, keyringEnv(keyring), "off");
    const res = await second.api.put("/credentials/another", { secret: "y" });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: "CREDENTIALS_KEY_UNAVAILABLE", details: { reason: "the OS keyring holds no key for this data dir" } });
    expect(res.body.error.message).toContain("no new key was made");
    // Model listing reports a credential it cannot use in its message, as for any other credential problem.
    expect((await roundTrip(second)).body).toMatchObject({ models: [], message: expect.stringContaining("the OS keyring holds no key for this data dir") });
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
    expect(keyring.entries()).toEqual({});
    expect(keyring.argv().filter((c) => c.startsWith("store"))).toHaveLength(1); // only the first daemon's
    // Two failed calls in a row asked the keyring once: a locked keyring must not stall every call.
    expect(keyring.argv().filter((c) => c.startsWith("lookup"))).toHaveLength(2); // the first daemon's read-back, then one
    expect((await second.api.get("/credentials")).body.credentials.map((c: { ref: string }) => c.ref)).toEqual(["llm.key"]);
  });

  test("a symbolic link in place of the marker is refused (503 CREDENTIALS_KEY_UNAVAILABLE), never followed or replaced", async () => {
    const keyring = stubKeyring();
    const home = await makeHome();
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const outside = join(tempDir("coffer-outside-"), "planted");
    writeFileSync(outside, '{"service":"coffer","account":"someone-elses"}\n', { mode: 0o644 });
    symlinkSync(outside, join(home, MARKER));
    const t = await daemon(home, keyringEnv(keyring));
    const res = await t.api.put("/credentials/llm.key", { secret: SECRET });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: "CREDENTIALS_KEY_UNAVAILABLE", message: expect.stringContaining("is a symbolic link") });
    expect(keyring.argv()).toEqual([]);
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
    expect([readFileSync(outside, "utf8"), mode(outside)]).toEqual(['{"service":"coffer","account":"someone-elses"}\n', 0o644]);
  });
});

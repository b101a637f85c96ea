import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { restoreBackup } from "../../src/main.js";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function daemonAt(home: string, overrides: Parameters<typeof startTestDaemon>[0] = {}): Promise<TestDaemon> {
  const t = await startTestDaemon({ home, ...overrides });
  cleanup.push(() => t.close());
  return t;
}

/** What the owner sees of everything a backup must bring back, read through the API. */
async function visible(t: TestDaemon) {
  const list = (await t.api.get("/chat/conversations?limit=100")).body.conversations as { id: string; title: string }[];
  const conversations = [];
  for (const c of [...list].sort((a, b) => a.id.localeCompare(b.id))) {
    const messages = (await t.api.get(`/chat/conversations/${c.id}/messages?limit=1000`)).body.messages as { id: string; role: string }[];
    conversations.push({ id: c.id, title: c.title, messages: messages.map((m) => m.id) });
  }
  const memory = (await t.api.get("/memory")).body.facts.map((f: { id: string; text: string }) => ({ id: f.id, text: f.text }));
  const kbs = (await t.api.get("/knowledge")).body.knowledge_bases.map((k: { id: string; name: string; documents: number; chunks: number }) => ({ id: k.id, name: k.name, docs: k.documents, chunks: k.chunks }));
  const skills = (await t.api.get("/skills")).body.skills.map((s: { name: string }) => s.name);
  const credentials = (await t.api.get("/credentials")).body.credentials.map((c: { ref: string }) => c.ref);
  return { conversations, memory, kbs, skills, credentials };
}

acceptance(
  "024-never-lose",
  "a backup taken while turns stream, restored into a new data dir, shows the same conversations, memory, knowledge, skills, credentials (decryptable) and queue",
  async () => {
    const home = await makeHome();
    const a = await daemonAt(home, { timings: { flushIntervalMs: 20 } as never });
    const secret = "sk-live-restore-proof-4242424242";

    // What the owner keeps: a finished conversation, memory, knowledge, a skill, a credential.
    const done = await a.conversation();
    const doneSub = await a.subscribe(done);
    await a.api.post(`/chat/conversations/${done}/messages`, { text: "keep this conversation" });
    await doneSub.waitFor((e) => e.type === "turn_done");
    doneSub.close();
    expect((await a.api.post("/memory", { text: "the deploy key lives in the vault", scope: "global" })).status).toBe(201);
    const kb = (await a.api.post("/knowledge", { name: "runbooks" })).body;
    const upload = await a.api.post(`/knowledge/${kb.id}/uploads`, { files: [{ path: "restart.md", content_base64: Buffer.from("# Restart\n\nRun the thing.\n").toString("base64") }] });
    expect(upload.status).toBe(202);
    for (;;) {
      const job = (await a.api.get(`/knowledge/imports/${upload.body.id}`)).body;
      if (job.status === "done") break;
      expect(job.status).not.toBe("failed");
      await new Promise((r) => setTimeout(r, 20)); // the import's own status is the signal
    }
    expect((await a.api.post("/skills", { name: "release", description: "when cutting a release", body: "# Release\n\nTag it.\n" })).status).toBe(201);
    expect((await a.api.put("/credentials/deploy.token", { secret })).status).toBe(200);
    // The session keeper's copies of the agents' own transcripts live in the data dir too.
    mkdirSync(join(home, "agent-sessions", "claude_code"), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, "agent-sessions", "claude_code", "s1.jsonl"), '{"type":"user"}\n', { mode: 0o600 });

    // A turn held mid-stream with a message queued behind it, and another streaming hard.
    const held = await a.conversation();
    const heldSub = await a.subscribe(held);
    await a.api.post(`/chat/conversations/${held}/messages`, { text: script({ text: "half a reply" }, { gate: "hold" }, { text: " and the rest" }) });
    await heldSub.waitFor((e) => e.type === "text_delta");
    expect((await a.api.post(`/chat/conversations/${held}/messages`, { text: "queued behind it" })).status).toBe(202);
    const busy = await a.conversation();
    const busySub = await a.subscribe(busy);
    await a.api.post(`/chat/conversations/${busy}/messages`, { text: script({ repeat: 3000, text: "tick " }) });
    await busySub.waitFor((e) => e.type === "text_delta");

    const backup = await a.api.post("/settings/backups", {});
    expect(backup.status).toBe(201);
    expect(backup.body).toMatchObject({ key_included: true, path: expect.stringContaining(join(home, "backups")) });
    expect(statSync(backup.body.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, "backups")).mode & 0o777).toBe(0o700);
    const before = await visible(a);
    a.scripted.gates.open("hold");
    await busySub.waitFor((e) => e.type === "turn_done");
    await a.stop();

    // Restore into a data dir that does not exist yet, and start a daemon on it.
    const fresh = `${await makeHome()}-restored`;
    cleanup.push(() => rm(fresh, { recursive: true, force: true }));
    const restored = await restoreBackup({ file: backup.body.path, home: fresh });
    expect(restored).toMatchObject({ previous: null, key: "restored", credentials: 1 });
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    expect(readdirSync(fresh).sort()).toEqual(["agent-sessions", "coffer.db", "credentials.key", "skills"]);
    expect(readFileSync(join(fresh, "agent-sessions", "claude_code", "s1.jsonl"), "utf8")).toBe('{"type":"user"}\n');
    const b = await daemonAt(fresh);
    const after = await visible(b);
    expect(after.memory).toEqual(before.memory);
    expect(after.kbs).toEqual(before.kbs);
    expect(after.kbs[0]?.docs).toBe(1);
    expect(after.skills).toEqual(["release"]);
    expect(after.credentials).toEqual(["deploy.token"]);
    // Every conversation and message the backup saw; the finished one whole.
    expect(after.conversations.map((c) => c.id)).toEqual(before.conversations.map((c) => c.id));
    expect(after.conversations.find((c) => c.id === done)).toEqual(before.conversations.find((c) => c.id === done));
    // The held turn was mid-stream in the backup: its flushed text is kept, and the queue is there, paused.
    const heldMessages = (await b.api.get(`/chat/conversations/${held}/messages`)).body.messages;
    expect(heldMessages.map((m: { status: string }) => m.status)).toEqual(["complete", "failed"]);
    expect(heldMessages[1].content).toEqual([{ type: "text", text: "half a reply" }]);
    expect((await b.api.get(`/chat/conversations/${held}/pending`)).body).toMatchObject({ paused: true, pending: [{ text: "queued behind it" }] });
    // Decryptable: the restored daemon opened the credential at start, so it knows the value and scrubs it.
    const fact = await b.api.post("/memory", { text: `rotate ${secret} monthly`, scope: "global" });
    expect(JSON.stringify(fact.body)).toContain("[credential:deploy.token]");
    expect(JSON.stringify(fact.body)).not.toContain(secret);
  },
  60_000,
);

acceptance("024-never-lose", "restore refuses while a daemon runs on that data dir, and changes nothing", async () => {
  const home = await makeHome();
  const a = await daemonAt(home);
  const backup = (await a.api.post("/settings/backups", {})).body;
  await expect(restoreBackup({ file: backup.path, home })).rejects.toMatchObject({ code: "DAEMON_ALREADY_RUNNING" });
  expect(readdirSync(join(home, "..")).filter((n) => n.startsWith(`.${home.split("/").pop()}.restoring`))).toEqual([]);
  expect((await a.api.get("/health")).status).toBe(200);
  expect(existsSync(join(home, "coffer.db"))).toBe(true);
});

/**
 * Mocked: the OS keyring. No Secret Service runs here, so `secret-tool` is a stand-in script
 * first on the daemon's PATH that keeps each entry in a file (as in credentials-keyring.test.ts).
 */
function stubSecretTool(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  writeFileSync(
    join(bin, "secret-tool"),
    `#!/bin/sh
cmd=$1; shift
account=''
while [ $# -gt 0 ]; do case "$1" in account) account=$2; shift 2 ;; *) shift ;; esac; done
case "$cmd" in
  store) cat > '${dir}/entry-'"$account" ;;
  lookup) [ -f '${dir}/entry-'"$account" ] || exit 1; cat '${dir}/entry-'"$account" ;;
esac
`,
    { mode: 0o755 },
  );
  return bin;
}

test("a data dir whose key is in the OS keyring backs up with the key, and restores where there is no keyring", async () => {
  const home = await makeHome();
  const keyringDir = await makeHome();
  cleanup.push(() => rm(keyringDir, { recursive: true, force: true }));
  const env = { ...process.env, PATH: `${stubSecretTool(keyringDir)}:${process.env.PATH}`, DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/0/bus-of-the-test" };
  const a = await daemonAt(home, { env, keyring: "auto" });
  const secret = "sk-keyring-backup-proof-777777";
  await a.api.put("/credentials/llm.key", { secret });
  expect(existsSync(join(home, "credentials.key.keyring"))).toBe(true);
  expect(existsSync(join(home, "credentials.key"))).toBe(false);
  const backup = (await a.api.post("/settings/backups", {})).body;
  expect(backup.key_included).toBe(true);
  await a.stop();

  const fresh = `${await makeHome()}-restored`;
  cleanup.push(() => rm(fresh, { recursive: true, force: true }));
  expect(await restoreBackup({ file: backup.path, home: fresh })).toMatchObject({ key: "restored", credentials: 1 });
  expect(statSync(join(fresh, "credentials.key")).mode & 0o777).toBe(0o600);
  const b = await daemonAt(fresh);
  const fact = await b.api.post("/memory", { text: `uses ${secret}`, scope: "global" });
  expect(JSON.stringify(fact.body)).toContain("[credential:llm.key]");
});

import { chmod, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
let fakeBin: string;

beforeAll(async () => {
  // A PATH where only `claude` resolves: availability must follow the daemon's PATH.
  fakeBin = await mkdtemp(join(tmpdir(), "coffer-bin-"));
  await writeFile(join(fakeBin, "claude"), "#!/bin/sh\nexit 0\n");
  await chmod(join(fakeBin, "claude"), 0o755);
  t = await startTestDaemon({ env: { ...process.env, PATH: fakeBin } });
});
afterAll(() => t.close());

function db() {
  return new Database(join(t.home, "coffer.db"), { readonly: true });
}

function auditActions(): string[] {
  const d = db();
  try {
    return (d.prepare("SELECT action FROM audit_log ORDER BY id").all() as { action: string }[]).map((r) => r.action);
  } finally {
    d.close();
  }
}

describe("agents", () => {
  acceptance("008-agent-chat", "list available agents", async () => {
    const res = await t.api.get("/chat/agents");
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.agents.map((a: any) => [a.agent_key, a]));
    expect(byKey.claude_code).toEqual({
      agent_key: "claude_code",
      display_name: "Claude Code",
      available: true,
      glyph: "asterisk",
      setup: {
        install: { command: "npm install -g @anthropic-ai/claude-code" },
        sign_in: [{ command: "claude", note: "then type `/login` and follow the browser sign-in" }, { env: "ANTHROPIC_API_KEY" }],
      },
    });
    // Each provider names its own install and sign-in steps and mark: the page has no table of them.
    expect(byKey.codex).toEqual({
      agent_key: "codex",
      display_name: "Codex",
      available: false,
      glyph: "hexagon",
      setup: { install: { command: "npm install -g @openai/codex" }, sign_in: [{ command: "codex login", note: "signs in with ChatGPT in the browser" }, { env: "OPENAI_API_KEY" }] },
    });
    expect(byKey.builtin).toBeUndefined();
    expect(res.body.agents.map((a: any) => a.agent_key).slice(0, 2)).toEqual(["claude_code", "codex"]);
  });

  test("a test-only provider joins the platform with no route, schema or engine change", async () => {
    const agents = (await t.api.get("/chat/agents")).body.agents;
    expect(agents.find((a: any) => a.agent_key === "scripted")).toMatchObject({ available: true, glyph: "generic", setup: { install: { command: "true" } } });
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "seam" });
    const done = await sub.waitFor((e) => e.type === "turn_done");
    expect(done.event).toMatchObject({ type: "turn_done", model: "scripted-1" });
    sub.close();
  });
});

describe("creating conversations", () => {
  acceptance("008-agent-chat", "choose an agent when starting a conversation", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coffer-cwd-"));
    const res = await t.api.post("/chat/conversations", {
      agent_key: "claude_code",
      agent_config: { cwd, model: "claude-sonnet-4-5" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      agent_key: "claude_code",
      title: "New conversation",
      agent_model: "claude-sonnet-4-5",
      archived_at: null,
      channel_binding: null,
      running: false,
    });
    expect((await t.api.get(`/chat/conversations/${res.body.id}/agent-config`)).body).toEqual({ cwd, model: "claude-sonnet-4-5" });
    const d = db();
    const row = d.prepare("SELECT agent_key, agent_config FROM conversations WHERE id = ?").get(res.body.id) as any;
    d.close();
    expect(row.agent_key).toBe("claude_code");
    expect(JSON.parse(row.agent_config)).toEqual({ cwd, model: "claude-sonnet-4-5" });
  });

  test("no cwd means the Coffer workspace, created on first use", async () => {
    const res = await t.api.post("/chat/conversations", { agent_key: "codex" });
    expect(res.status).toBe(201);
    const config = (await t.api.get(`/chat/conversations/${res.body.id}/agent-config`)).body;
    expect(config).toEqual({ cwd: t.workspace, model: null });
    expect((await stat(config.cwd)).isDirectory()).toBe(true);
  });

  acceptance("008-agent-chat", "reject an unknown agent or invalid agent configuration", async () => {
    const before = (await t.api.get("/chat/conversations")).body.conversations.length;
    const auditBefore = auditActions().length;

    const unknown = await t.api.post("/chat/conversations", { agent_key: "no-such-agent" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("UNKNOWN_AGENT");
    expect(unknown.body.error.message).toContain("no-such-agent");

    const badCwd = await t.api.post("/chat/conversations", { agent_key: "claude_code", agent_config: { cwd: "/no/such/dir/xyz" } });
    expect(badCwd.status).toBe(400);
    expect(badCwd.body.error).toMatchObject({ code: "AGENT_CONFIG_REJECTED", details: { reason: "cwd_not_a_directory" } });
    expect(badCwd.body.error.message).toContain("/no/such/dir/xyz");

    const relative = await t.api.post("/chat/conversations", { agent_key: "codex", agent_config: { cwd: "src" } });
    expect(relative.body.error).toMatchObject({ code: "AGENT_CONFIG_REJECTED", details: { reason: "invalid_cwd" } });
    const badModel = await t.api.post("/chat/conversations", { agent_key: "codex", agent_config: { model: 42 } });
    expect(badModel.body.error).toMatchObject({ code: "AGENT_CONFIG_REJECTED", details: { reason: "invalid_model" } });

    expect((await t.api.get("/chat/conversations")).body.conversations.length).toBe(before);
    expect(auditActions().length).toBe(auditBefore);
  });
});

describe("managing conversations", () => {
  acceptance("008-agent-chat", "manage conversations", async () => {
    const a = await t.conversation();
    const b = await t.conversation();
    const list = (await t.api.get("/chat/conversations")).body.conversations.map((c: any) => c.id);
    expect(list.indexOf(b)).toBeLessThan(list.indexOf(a)); // newest first

    // A turn in `a` bumps it to the top, and its first message titles it.
    const sub = await t.subscribe(a);
    await t.api.post(`/chat/conversations/${a}/messages`, { text: "Plan the quarterly deploy" });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    const after = (await t.api.get("/chat/conversations")).body.conversations;
    expect(after[0]).toMatchObject({ id: a, title: "Plan the quarterly deploy" });

    const renamed = await t.api.patch(`/chat/conversations/${b}`, { title: "  Renamed  " });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe("Renamed");
    expect((await t.api.get(`/chat/conversations/${b}`)).body.title).toBe("Renamed");

    const del = await t.api.delete(`/chat/conversations/${a}`);
    expect(del.status).toBe(204);
    const gone = await t.api.get(`/chat/conversations/${a}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("CONVERSATION_NOT_FOUND");
    expect((await t.api.get(`/chat/conversations/${a}/messages`)).status).toBe(404);
    const d = db();
    const orphans = d.prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?").get(a) as { n: number };
    d.close();
    expect(orphans.n).toBe(0);
    expect(t.scripted.deleted).toContain(a);
    expect(auditActions()).toEqual(expect.arrayContaining(["conversation_created", "conversation_deleted"]));
    expect((await t.api.delete(`/chat/conversations/${a}`)).status).toBe(404);
  });

  test("an owner's title survives the first message", async () => {
    const id = await t.conversation();
    await t.api.patch(`/chat/conversations/${id}`, { title: "Mine" });
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "this must not become the title" });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    expect((await t.api.get(`/chat/conversations/${id}`)).body.title).toBe("Mine");
  });

  acceptance("008-agent-chat", "archive and restore a conversation", async () => {
    const id = await t.conversation();
    const active = async () => (await t.api.get("/chat/conversations")).body.conversations.map((c: any) => c.id);
    const archived = async () => (await t.api.get("/chat/conversations?archived=true")).body.conversations.map((c: any) => c.id);
    expect(await active()).toContain(id);
    expect(await archived()).not.toContain(id);

    const arch = await t.api.post(`/chat/conversations/${id}/archive`);
    expect(arch.status).toBe(200);
    expect(arch.body.archived_at).not.toBeNull();
    expect(await active()).not.toContain(id);
    expect(await archived()).toContain(id);
    expect((await t.api.get(`/chat/conversations/${id}`)).status).toBe(200); // not destroyed

    const restored = await t.api.post(`/chat/conversations/${id}/unarchive`);
    expect(restored.body.archived_at).toBeNull();
    expect(await active()).toContain(id);

    const missing = await t.api.post("/chat/conversations/nope/archive");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("CONVERSATION_NOT_FOUND");
  });

  acceptance("008-agent-chat", "a channel-driven conversation is observable from the console", async () => {
    const bound = await t.api.post("/chat/conversations", {
      agent_key: "scripted",
      channel_binding: { channel: "team-standup", chat_id: "peer-42" },
    });
    expect(bound.body.channel_binding).toEqual({ channel: "team-standup", chat_id: "peer-42", channel_id: null });
    const desktop = await t.conversation();
    const list = (await t.api.get("/chat/conversations")).body.conversations;
    expect(list.find((c: any) => c.id === bound.body.id).channel_binding).toEqual({ channel: "team-standup", chat_id: "peer-42", channel_id: null });
    expect(list.find((c: any) => c.id === desktop).channel_binding).toBeNull();
    const d = db();
    const row = d.prepare("SELECT channel_name, peer_chat_id FROM conversations WHERE id = ?").get(bound.body.id);
    d.close();
    expect(row).toEqual({ channel_name: "team-standup", peer_chat_id: "peer-42" });
  });
});

describe("agent config", () => {
  acceptance("008-agent-chat", "set a managed agent's model per conversation", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coffer-cwd-"));
    const id = (await t.api.post("/chat/conversations", { agent_key: "claude_code", agent_config: { cwd } })).body.id;
    expect((await t.api.get(`/chat/conversations/${id}/agent-config`)).body).toEqual({ cwd, model: null });

    // The agent has a session by now; the model must not disturb it.
    const w = new Database(join(t.home, "coffer.db"));
    w.prepare("UPDATE conversations SET agent_config = json_set(agent_config, '$.session_id', 'sess-1') WHERE id = ?").run(id);
    w.close();
    const stored = () => {
      const d = db();
      const r = JSON.parse((d.prepare("SELECT agent_config FROM conversations WHERE id = ?").get(id) as any).agent_config);
      d.close();
      return r;
    };

    const set = await t.api.patch(`/chat/conversations/${id}/agent-config`, { model: "claude-opus-4-8" });
    expect(set.body).toEqual({ cwd, model: "claude-opus-4-8" });
    expect(stored()).toEqual({ cwd, model: "claude-opus-4-8", session_id: "sess-1" });
    expect((await t.api.get(`/chat/conversations/${id}`)).body.agent_model).toBe("claude-opus-4-8");

    expect((await t.api.patch(`/chat/conversations/${id}/agent-config`, {})).body.model).toBe("claude-opus-4-8");
    expect((await t.api.patch(`/chat/conversations/${id}/agent-config`, { model: "   " })).body).toEqual({ cwd, model: null });
    expect(stored()).toEqual({ cwd, session_id: "sess-1" });
    await t.api.patch(`/chat/conversations/${id}/agent-config`, { model: "x" });
    expect((await t.api.patch(`/chat/conversations/${id}/agent-config`, { model: null })).body.model).toBeNull();

    expect((await t.api.get("/chat/conversations/nope/agent-config")).status).toBe(404);
    expect((await t.api.patch("/chat/conversations/nope/agent-config", { model: "m" })).status).toBe(404);
  });
});

describe("listing and search", () => {
  test("q matches titles and message text, case-insensitively, and pages with a cursor", async () => {
    const local = await startTestDaemon();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const id = await local.conversation();
        ids.push(id);
        const sub = await local.subscribe(id);
        await local.api.post(`/chat/conversations/${id}/messages`, { text: i % 2 ? `Kubernetes rollout ${i}` : `plain ${i}` });
        await sub.waitFor((e) => e.type === "turn_done");
        sub.close();
      }
      await local.api.patch(`/chat/conversations/${ids[0]}`, { title: "About KUBERNETES" });
      const hits = (await local.api.get("/chat/conversations?q=kubernetes")).body.conversations.map((c: any) => c.id);
      expect(new Set(hits)).toEqual(new Set([ids[0], ids[1], ids[3]]));
      expect((await local.api.get("/chat/conversations?q=kube")).body.conversations).toHaveLength(3); // prefix
      expect((await local.api.get("/chat/conversations?q=echo%20rollout")).body.conversations).toHaveLength(2); // assistant text too
      expect((await local.api.get("/chat/conversations?q=zzzz")).body.conversations).toEqual([]);

      const page1 = (await local.api.get("/chat/conversations?limit=2")).body;
      expect(page1.conversations).toHaveLength(2);
      const page2 = (await local.api.get(`/chat/conversations?limit=2&cursor=${page1.next_cursor}`)).body;
      const page3 = (await local.api.get(`/chat/conversations?limit=2&cursor=${page2.next_cursor}`)).body;
      expect(page3.next_cursor).toBeNull();
      const all = [...page1.conversations, ...page2.conversations, ...page3.conversations].map((c: any) => c.id);
      expect(new Set(all).size).toBe(5);

      const bad = await local.api.get("/chat/conversations?cursor=garbage");
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("CURSOR_INVALID");
      expect((await local.api.get("/chat/conversations?limit=0")).status).toBe(422);
    } finally {
      await local.close();
    }
  });
});

test("a fresh data dir is created with a private token", async () => {
  const home = join(await mkdtemp(join(tmpdir(), "coffer-fresh-")), "nested", "home");
  const local = await startTestDaemon({ home });
  try {
    expect((await stat(join(home, "token"))).mode & 0o777).toBe(0o600);
    const info = JSON.parse(await readFile(join(home, "daemon.json"), "utf8"));
    expect(info).toEqual({ pid: process.pid, port: local.daemon.port, url: local.daemon.url });
  } finally {
    await local.close();
  }
});

/**
 * Coffer keeps the agent's side of a conversation (issue 24), with the REAL `claude` and `codex`
 * CLIs against the fake model servers: a transcript (Claude) or rollout (Codex) the CLI lost is
 * put back from Coffer's copy and the follow-up is answered with the earlier turn in the model's
 * request; with no copy either, the fresh session starts from Coffer's history of the
 * conversation and the thread says so in one line. Never a silent reset.
 */
import { readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import Database from "better-sqlite3";
import { join } from "node:path";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AGENTS, startAgentHarness, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import { conversationTexts } from "../fakes/fake-openai-responses.js";
import { FakeOllamaLlm } from "../fakes/llm-fake-ollama.js";
import { acceptance } from "../support/acceptance.js";

const SPEC = "024-agent-sessions";
const TURN = 90_000;
const isTerminal = (e: ChatEvent) => isTerminalEvent(e);
const FACT = "my cat is called Zorro";

/** Where each CLI keeps what a resume reads, under its own home (CLAUDE_CONFIG_DIR, CODEX_HOME). */
const CLI_FOLDER: Record<AgentKey, string> = { claude_code: "projects", codex: "sessions" };
/** How each fake model server answers a plain message. */
const REPLY: Record<AgentKey, string> = { claude_code: "Fake reply to: ", codex: "Echo: " };

describe.each(AGENTS)("%s: the agent's side of a conversation", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 30_000);
  afterAll(() => h?.close(), 30_000);

  const copyDir = (id: string) => join(h.daemon.home, "agent-sessions", agent, id);

  /** Every message text of the model request that carried `text` (the conversation the CLI sent). */
  async function requestWith(text: string): Promise<string[]> {
    if (agent === "claude_code") {
      const fake = (h as AgentHarness<"claude_code">).fake;
      const req = await fake.waitForRequest((r) => r.transcript.some((m) => m.role === "user" && m.text.includes(text)));
      return req.transcript.map((m) => m.text);
    }
    const fake = (h as AgentHarness<"codex">).fake;
    return conversationTexts(await fake.waitForRequest((r) => r.userText.includes(text)));
  }

  /**
   * Resolves once Coffer's copy holds the agent's reply to the first turn: the copy is made after
   * the turn settles (and again when Claude's process exits), on the keeper's own schedule.
   */
  async function copyHolds(id: string, text: string): Promise<void> {
    for (;;) {
      if ((await readFile(join(copyDir(id), "session.jsonl"), "utf8").catch(() => "")).includes(text)) return;
      await new Promise((r) => setTimeout(r, 20)); // polling a file: the signal is the copy itself
    }
  }

  async function turn(id: string, text: string) {
    const sub = await h.daemon.subscribe(id);
    await h.send(id, text);
    const terminal = (await sub.waitFor(isTerminal)).event;
    sub.close();
    return terminal;
  }

  /** Turn 1 states the fact; the daemon restarts (a cold resume next), and the copy holds the reply. */
  async function firstTurn(): Promise<string> {
    const id = await h.conversation(agent === "claude_code" ? { model: "claude-sonnet-4-5" } : {});
    expect(await turn(id, FACT)).toMatchObject({ type: "turn_done" });
    await copyHolds(id, `${REPLY[agent]}${FACT}`);
    await h.restart();
    return id;
  }

  acceptance(
    SPEC,
    "a Claude transcript or Codex rollout the CLI lost is put back from Coffer's copy, and the follow-up is answered with the earlier context",
    async () => {
      const id = await firstTurn();
      const session = h.storedAgentConfig(id).session_id as string;
      // The CLI's own cleanup (or the owner) removed every transcript / rollout.
      await rm(join(h.agentHome, CLI_FOLDER[agent]), { recursive: true, force: true });

      expect(await turn(id, "what is my cat called?")).toMatchObject({ type: "turn_done" });
      const texts = await requestWith("what is my cat called?");
      // The earlier turn reached the model as the agent's own history, not as a seed.
      expect(texts.some((t) => t.includes(FACT))).toBe(true);
      expect(texts.join("\n")).not.toContain("[Coffer]");
      expect(h.storedAgentConfig(id).session_id).toBe(session);
      expect(h.auditRows("agent_session_restored").filter((r) => r.details.conversation_id === id)).toEqual([
        { actor: "agent", details: { conversation_id: id, agent, session_id: session } },
      ]);
      expect(h.auditRows("agent_session_reseeded").filter((r) => r.details.conversation_id === id)).toEqual([]);
      // Put back where the CLI reads it, private.
      const restored = await findFile(join(h.agentHome, CLI_FOLDER[agent]), session);
      expect(restored).not.toBeNull();
      expect((await stat(restored!)).mode & 0o777).toBe(0o600);
      // No notice: nothing was lost.
      const messages = await h.messages(id);
      expect(messages.flatMap((m: any) => m.content).filter((b: any) => b.type === "notice")).toEqual([]);
    },
    TURN,
  );

  acceptance(
    SPEC,
    "when neither the CLI nor Coffer has the session, the fresh session starts with the conversation so far and the thread says so in one line",
    async () => {
      const id = await firstTurn();
      const lost = h.storedAgentConfig(id).session_id as string;
      await rm(join(h.agentHome, CLI_FOLDER[agent]), { recursive: true, force: true });
      await rm(copyDir(id), { recursive: true, force: true });

      expect(await turn(id, "and what is he called?")).toMatchObject({ type: "turn_done" });
      const texts = await requestWith("and what is he called?");
      const seed = texts.find((t) => t.includes("and what is he called?"))!;
      // Coffer's own history of the conversation, then the owner's new message.
      expect(seed).toContain("[Coffer]");
      expect(seed).toContain(`Owner: ${FACT}`);
      expect(seed).toContain(`You: ${REPLY[agent]}${FACT}`);
      expect(seed.trimEnd().endsWith("and what is he called?")).toBe(true);

      const reply = (await h.messages(id)).at(-1);
      expect(reply.content[0]).toEqual({
        type: "notice",
        code: "agent_session_reseeded",
        text: "The agent had lost this conversation's session; it was restarted with the conversation so far.",
      });
      expect(reply.content.filter((b: any) => b.type === "notice")).toHaveLength(1);
      expect(h.auditRows("agent_session_reseeded").filter((r) => r.details.conversation_id === id)).toEqual([
        { actor: "agent", details: { conversation_id: id, agent, lost_session_id: lost, restore: "lost" } },
      ]);
      // The fresh session is kept from now on.
      expect(h.storedAgentConfig(id).session_id).not.toBe(lost);
      await copyHolds(id, "and what is he called?");
    },
    TURN,
  );

  acceptance(
    SPEC,
    "the kept copy is private (0700 folder, 0600 files), one per conversation replaced each turn, and deleted with its conversation",
    async () => {
      const id = await h.conversation(agent === "claude_code" ? { model: "claude-sonnet-4-5" } : {});
      expect(await turn(id, "first words")).toMatchObject({ type: "turn_done" });
      await copyHolds(id, `${REPLY[agent]}first words`);
      expect(await turn(id, "second words")).toMatchObject({ type: "turn_done" });
      await copyHolds(id, `${REPLY[agent]}second words`);
      for (const dir of [join(h.daemon.home, "agent-sessions"), join(h.daemon.home, "agent-sessions", agent), copyDir(id)]) {
        expect((await stat(dir)).mode & 0o777).toBe(0o700);
      }
      expect((await readdir(copyDir(id))).sort()).toEqual(["meta.json", "session.jsonl"]);
      for (const file of ["meta.json", "session.jsonl"]) expect((await stat(join(copyDir(id), file))).mode & 0o777).toBe(0o600);
      const meta = JSON.parse(await readFile(join(copyDir(id), "meta.json"), "utf8"));
      expect(meta.session_id).toBe(h.storedAgentConfig(id).session_id);

      expect((await h.daemon.api.delete(`/chat/conversations/${id}`)).status).toBe(204);
      await expect(stat(copyDir(id))).rejects.toMatchObject({ code: "ENOENT" });
    },
    TURN,
  );

  acceptance(
    SPEC,
    "a corrupt copy is never put back: the conversation is restarted with the conversation so far instead",
    async () => {
      const id = await firstTurn();
      await rm(join(h.agentHome, CLI_FOLDER[agent]), { recursive: true, force: true });
      // A bit flipped on disk: the bytes no longer match the sha256 the copy was kept with.
      const copy = join(copyDir(id), "session.jsonl");
      await writeFile(copy, (await readFile(copy, "utf8")).replace("Zorro", "Zorrp"));

      expect(await turn(id, "still there?")).toMatchObject({ type: "turn_done" });
      expect((await requestWith("still there?")).join("\n")).toContain(`Owner: ${FACT}`);
      expect(h.auditRows("agent_session_restored").filter((r) => r.details.conversation_id === id)).toEqual([]);
      expect((await h.messages(id)).at(-1).content[0]).toMatchObject({ type: "notice", code: "agent_session_reseeded" });
    },
    TURN,
  );
});

describe("the seed's older messages, condensed by the local model", () => {
  let h: AgentHarness<"codex">;
  let local: FakeOllamaLlm;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
    // The owner's local model, marked the internal default (the connection coffer__ask uses).
    local = await FakeOllamaLlm.start({ models: ["fake-model"], reply: (chat) => ({ text: `SUMMARY(${chat.userText.includes(FACT) ? "cat Zorro" : "?"})` }) });
    const res = await h.daemon.api.post("/connections", { name: "local", wire: "ollama", base_url: local.baseUrl, model: "fake-model", credential_ref: null, internal_default: true });
    expect(res.status).toBe(201);
  }, 30_000);
  afterAll(async () => {
    await local?.close();
    await h?.close();
  }, 30_000);

  acceptance(
    SPEC,
    "with a local model set, a lost session's older messages reach the fresh session as that model's summary, the latest verbatim",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      // Four turns: the first (the fact) falls outside the six messages kept verbatim.
      for (const [n, text] of [FACT, "one", "two", "three"].entries()) {
        await h.send(id, text);
        await sub.waitForCount(isTerminal, n + 1);
      }
      sub.close();
      await h.restart();
      await rm(join(h.agentHome, "sessions"), { recursive: true, force: true });
      await rm(join(h.daemon.home, "agent-sessions"), { recursive: true, force: true });

      const again = await h.daemon.subscribe(id);
      await h.send(id, "what is my cat called?");
      expect((await again.waitFor(isTerminal)).event).toMatchObject({ type: "turn_done" });
      again.close();
      const seed = conversationTexts(await h.fake.waitForRequest((r) => r.userText.endsWith("what is my cat called?")))[0]!;
      expect(seed).toContain("Summary of the 2 earlier messages:\nSUMMARY(cat Zorro)");
      expect(seed).not.toContain(`Owner: ${FACT}`);
      expect(seed).toContain("Owner: one");
      expect(seed).toContain("You: Echo: three");
      expect(local.chats).toHaveLength(1);
    },
    TURN,
  );
});

describe("retention", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 30_000);
  afterAll(() => h?.close(), 30_000);

  test("a conversation the retention worker deletes takes its kept copy with it", async () => {
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, FACT);
    await sub.waitFor(isTerminal);
    sub.close();
    const copy = join(h.daemon.home, "agent-sessions", "codex", id);
    for (;;) {
      if ((await readFile(join(copy, "session.jsonl"), "utf8").catch(() => "")).includes(`Echo: ${FACT}`)) break;
      await new Promise((r) => setTimeout(r, 20)); // polling a file: the signal is the copy itself
    }
    expect((await h.daemon.api.post(`/chat/conversations/${id}/archive`, {})).status).toBe(200);
    // Archived 60 days ago (the default deletes after 30): the one write this test makes to the
    // database itself, because the daemon's clock is the real one here.
    const db = new Database(join(h.daemon.home, "coffer.db"));
    try {
      db.prepare("UPDATE conversations SET archived_at = ? WHERE id = ?").run(Date.now() - 60 * 86_400_000, id);
    } finally {
      db.close();
    }
    const pass = await h.daemon.daemon.retention.runOnce();
    expect(pass.deleted).toBe(1);
    expect((await h.daemon.api.get(`/chat/conversations/${id}`)).status).toBe(404);
    await expect(stat(copy)).rejects.toMatchObject({ code: "ENOENT" });
  }, TURN);
});

/** The CLI's file for `session` anywhere under `root`. */
async function findFile(root: string, session: string): Promise<string | null> {
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (entry.isFile() && entry.name.endsWith(`${session}.jsonl`)) return join(entry.parentPath ?? (entry as any).path, entry.name);
  }
  return null;
}

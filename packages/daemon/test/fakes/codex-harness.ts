/**
 * A real daemon whose `codex` agent is the real binary (from a temp bin dir on PATH),
 * talking to our fake Responses server through a temp CODEX_HOME. Tests create Codex
 * conversations over HTTP and watch the SSE stream; nothing leaves 127.0.0.1.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { AgentProvider } from "../../src/main.js";
import type { Logger } from "../../src/application/ports.js";
import { CodexProvider } from "../../src/infrastructure/agents/codex-provider.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { makeCodexSandbox, type CodexSandbox } from "./codex-home.js";
import { FakeOpenAiResponses, type FakeResponsesOptions } from "./fake-openai-responses.js";

export interface CodexHarness {
  readonly fake: FakeOpenAiResponses;
  readonly sandbox: CodexSandbox;
  daemon: TestDaemon;
  codex: CodexProvider;
  /** Everything the daemon logged (warn and above, plus codex stderr lines). */
  readonly logs: LogLine[];
  /** Create a Codex conversation over HTTP; returns its id. */
  conversation(agentConfig?: Record<string, unknown>): Promise<string>;
  send(id: string, text: string): Promise<void>;
  /** Stop the daemon (keeping its data dir) and start a new one on the same data. */
  restart(): Promise<void>;
  storedAgentConfig(id: string): Record<string, unknown>;
  auditRows(action: string): { actor: string; details: Record<string, any> }[];
  close(): Promise<void>;
}

export interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly ctx: Record<string, unknown> | undefined;
}

export interface CodexHarnessOptions {
  readonly fake?: FakeResponsesOptions;
}

export async function startCodexHarness(options: CodexHarnessOptions = {}): Promise<CodexHarness> {
  const fake = await FakeOpenAiResponses.start(options.fake);
  const sandbox = await makeCodexSandbox(fake.baseUrl);
  const logs: LogLine[] = [];
  const record =
    (level: string) =>
    (msg: string, ctx?: Record<string, unknown>): void => {
      if (level !== "debug") logs.push({ level, msg, ctx });
    };
  const logger: Logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
  const boot = async (home?: string) => {
    let codex: CodexProvider | undefined;
    const daemon = await startTestDaemon({
      ...(home ? { home } : {}),
      env: sandbox.env,
      logger,
      providers: (defaults: AgentProvider[]) => {
        codex = defaults.find((p): p is CodexProvider => p instanceof CodexProvider);
        return defaults;
      },
    });
    if (!codex) throw new Error("the daemon registered no Codex provider");
    return { daemon, codex };
  };
  const first = await boot();
  const harness: CodexHarness = {
    fake,
    sandbox,
    logs,
    daemon: first.daemon,
    codex: first.codex,
    async conversation(agentConfig = {}) {
      const res = await harness.daemon.api.post("/chat/conversations", { agent_key: "codex", agent_config: agentConfig });
      if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    async send(id, text) {
      const ack = await harness.daemon.api.post(`/chat/conversations/${id}/messages`, { text });
      if (ack.status !== 202) throw new Error(`send failed: ${ack.status} ${JSON.stringify(ack.body)}`);
    },
    async restart() {
      await harness.daemon.stop();
      const next = await boot(harness.daemon.home);
      harness.daemon = next.daemon;
      harness.codex = next.codex;
    },
    storedAgentConfig(id) {
      return withDb(harness.daemon.home, (db) => {
        const row = db.prepare("SELECT agent_config FROM conversations WHERE id = ?").get(id) as { agent_config: string };
        return JSON.parse(row.agent_config);
      });
    },
    auditRows(action) {
      return withDb(harness.daemon.home, (db) =>
        (db.prepare("SELECT actor, details FROM audit_log WHERE action = ? ORDER BY id").all(action) as any[]).map((r) => ({
          actor: r.actor,
          details: JSON.parse(r.details),
        })),
      );
    },
    async close() {
      await harness.daemon.close();
      await fake.close();
      await sandbox.remove();
    },
  };
  return harness;
}

function withDb<T>(home: string, fn: (db: Database.Database) => T): T {
  const db = new Database(join(home, "coffer.db"), { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The assistant text of a message, for assertions. */
export function textOf(message: { content: { type: string; text?: string }[] }): string {
  return message.content
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("");
}

/** Live `codex` processes this test process started (the app-servers of in-process daemons). */
export function codexChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid …": comm may hold spaces, so split after the last ")".
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (comm === "codex" && state !== "Z" && Number(ppid) === process.pid) pids.push(Number(entry));
  }
  return pids;
}

/** Whether a process id is still alive (signal 0 checks without touching it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] !== "Z";
  } catch {
    return false;
  }
}

/**
 * ONE harness for the real agent CLIs: a real in-process daemon whose `claude_code` or
 * `codex` agent is the real binary (agent-rig.ts: on a hermetic PATH, talking to our fake
 * model server). Tests drive it over HTTP and SSE; nothing leaves 127.0.0.1. Parameterised
 * by agent, so a scenario can run against both with `describe.each(AGENTS)`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { AgentProvider, StartOptions } from "../../src/main.js";
import type { Logger } from "../../src/application/ports.js";
import { ClaudeCodeProvider } from "../../src/infrastructure/agents/claude-code/claude-code-provider.js";
import { CodexProvider } from "../../src/infrastructure/agents/codex/codex-provider.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { makeAgentRig, type AgentKey, type AgentRig, type FakeOptionsFor } from "./agent-rig.js";

export { AGENTS, BUNDLED_CLAUDE, type AgentKey } from "./agent-rig.js";

interface ProviderFor {
  claude_code: ClaudeCodeProvider;
  codex: CodexProvider;
}
const PROVIDER_CLASS = { claude_code: ClaudeCodeProvider, codex: CodexProvider } as const;

export interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly ctx: Record<string, unknown> | undefined;
}

export interface AgentHarness<K extends AgentKey = AgentKey> extends Omit<AgentRig<K>, "close"> {
  daemon: TestDaemon;
  /** The daemon's provider for this agent (warm processes, app-server pid). */
  provider: ProviderFor[K];
  /** Everything the daemon logged (info and above, plus the agent's stderr lines). */
  readonly logs: LogLine[];
  /** Create a conversation with this agent over HTTP; returns its id. */
  conversation(agentConfig?: Record<string, unknown>): Promise<string>;
  send(id: string, text: string): Promise<void>;
  messages(id: string): Promise<any[]>;
  /** Stop the daemon (keeping its data dir) and start a new one on the same data. */
  restart(): Promise<void>;
  storedAgentConfig(id: string): Record<string, unknown>;
  auditRows(action: string): { actor: string; details: Record<string, any> }[];
  close(): Promise<void>;
}

export interface AgentHarnessOptions<K extends AgentKey> {
  readonly fake?: FakeOptionsFor[K];
  readonly timings?: Partial<StartOptions["timings"]>;
  /** Extra daemon environment (e.g. COFFER_CLAUDE_IDLE_SECONDS). */
  readonly env?: NodeJS.ProcessEnv;
  /** Extra daemon start options (e.g. a fake Bot API's root, to reach the agent from the phone). */
  readonly daemon?: Partial<StartOptions>;
}

export async function startAgentHarness<K extends AgentKey>(agent: K, options: AgentHarnessOptions<K> = {}): Promise<AgentHarness<K>> {
  const rig = await makeAgentRig(agent, { ...(options.fake ? { fake: options.fake } : {}), ...(options.env ? { env: options.env } : {}) });
  const logs: LogLine[] = [];
  const record =
    (level: string) =>
    (msg: string, ctx?: Record<string, unknown>): void => {
      if (level !== "debug") logs.push({ level, msg, ctx });
    };
  const logger: Logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
  const boot = async (dataHome?: string) => {
    let provider: ProviderFor[K] | undefined;
    const daemon = await startTestDaemon({
      ...options.daemon,
      ...(dataHome ? { home: dataHome } : {}),
      env: rig.env,
      // Where the daemon would put it with this HOME (config.ts): outside the data dir.
      workspace: join(rig.home, "coffer-workspace"),
      logger,
      ...(options.timings ? { timings: options.timings as StartOptions["timings"] } : {}),
      providers: (defaults: AgentProvider[]) => {
        provider = defaults.find((p) => p instanceof PROVIDER_CLASS[agent]) as ProviderFor[K] | undefined;
        return defaults;
      },
    });
    if (!provider) throw new Error(`the daemon registered no ${agent} provider`);
    return { daemon, provider };
  };
  const first = await boot();
  const db = <T>(fn: (d: Database.Database) => T): T => withDb(harness.daemon.home, fn);
  const harness: AgentHarness<K> = {
    ...rig,
    logs,
    daemon: first.daemon,
    provider: first.provider,
    async conversation(agentConfig = {}) {
      const res = await harness.daemon.api.post("/chat/conversations", { agent_key: agent, agent_config: agentConfig });
      if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    async send(id, text) {
      const ack = await harness.daemon.api.post(`/chat/conversations/${id}/messages`, { text });
      if (ack.status !== 202) throw new Error(`send failed: ${ack.status} ${JSON.stringify(ack.body)}`);
    },
    async messages(id) {
      return (await harness.daemon.api.get(`/chat/conversations/${id}/messages`)).body.messages;
    },
    async restart() {
      await harness.daemon.stop();
      const next = await boot(harness.daemon.home);
      harness.daemon = next.daemon;
      harness.provider = next.provider;
    },
    storedAgentConfig(id) {
      return db((d) => JSON.parse((d.prepare("SELECT agent_config FROM conversations WHERE id = ?").get(id) as { agent_config: string }).agent_config));
    },
    auditRows(action) {
      return db((d) =>
        (d.prepare("SELECT actor, details FROM audit_log WHERE action = ? ORDER BY id").all(action) as any[]).map((r) => {
          // The verified principal rides in the stored details (see sqlite/rows/audit-principal.ts); these
          // tests assert what the row says happened, audit-principals.test.ts asserts who.
          const { $principal: _principal, ...details } = JSON.parse(r.details);
          return { actor: r.actor, details };
        }),
      );
    },
    async close() {
      await harness.daemon.close();
      await rig.close();
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

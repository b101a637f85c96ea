/**
 * A real daemon whose `claude_code` agent is the SDK's bundled native `claude` (put on
 * PATH through a temp bin dir), talking to our fake Anthropic server, with its own
 * CLAUDE_CONFIG_DIR and HOME. Tests drive it over HTTP and SSE; nothing leaves 127.0.0.1.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import type { AgentProvider, StartOptions } from "../../src/main.js";
import { ClaudeCodeProvider } from "../../src/infrastructure/agents/claude-code-provider.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { FakeAnthropic, type FakeAnthropicOptions } from "./fake-anthropic.js";

/** The native CLI the Agent SDK ships (optional dependency, no download). */
export const BUNDLED_CLAUDE = join(
  dirname(createRequire(import.meta.url).resolve("@anthropic-ai/claude-agent-sdk-linux-x64/package.json")),
  "claude",
);

export interface ClaudeHarness {
  readonly fake: FakeAnthropic;
  /** A scratch directory to use as a conversation's cwd. */
  readonly workDir: string;
  readonly configDir: string;
  daemon: TestDaemon;
  claude: ClaudeCodeProvider;
  conversation(agentConfig?: Record<string, unknown>): Promise<string>;
  send(id: string, text: string): Promise<void>;
  messages(id: string): Promise<any[]>;
  /** Stop the daemon (keeping its data dir) and start a new one on the same data. */
  restart(): Promise<void>;
  /** Replace `claude` on PATH with a shell script (faults), or put the real one back (null). */
  useClaudeScript(script: string | null): Promise<void>;
  /** Take `claude` off PATH. */
  removeClaude(): Promise<void>;
  storedAgentConfig(id: string): Record<string, unknown>;
  auditRows(action: string): { actor: string; details: Record<string, any> }[];
  close(): Promise<void>;
}

export interface ClaudeHarnessOptions {
  readonly fake?: FakeAnthropicOptions;
  readonly timings?: Partial<StartOptions["timings"]>;
  /** Extra daemon environment (e.g. COFFER_CLAUDE_IDLE_SECONDS). */
  readonly env?: NodeJS.ProcessEnv;
}

export async function startClaudeHarness(options: ClaudeHarnessOptions = {}): Promise<ClaudeHarness> {
  const fake = await FakeAnthropic.start(options.fake);
  const root = await mkdtemp(join(tmpdir(), "coffer-claude-"));
  const [bin, configDir, home, workDir] = ["bin", "config", "home", "work"].map((d) => join(root, d)) as [string, string, string, string];
  await Promise.all([bin, configDir, home, workDir].map((d) => mkdir(d, { recursive: true })));
  const claudeOnPath = join(bin, "claude");
  await symlink(BUNDLED_CLAUDE, claudeOnPath);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    ...fake.clientEnv(),
    ...options.env,
  };
  const boot = async (dataHome?: string) => {
    let claude: ClaudeCodeProvider | undefined;
    const daemon = await startTestDaemon({
      ...(dataHome ? { home: dataHome } : {}),
      env,
      ...(options.timings ? { timings: options.timings as StartOptions["timings"] } : {}),
      providers: (defaults: AgentProvider[]) => {
        claude = defaults.find((p): p is ClaudeCodeProvider => p instanceof ClaudeCodeProvider);
        return defaults;
      },
    });
    if (!claude) throw new Error("the daemon registered no Claude Code provider");
    return { daemon, claude };
  };
  const first = await boot();
  const harness: ClaudeHarness = {
    fake,
    workDir,
    configDir,
    daemon: first.daemon,
    claude: first.claude,
    async conversation(agentConfig = {}) {
      const res = await harness.daemon.api.post("/chat/conversations", { agent_key: "claude_code", agent_config: agentConfig });
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
      harness.claude = next.claude;
    },
    async useClaudeScript(script) {
      await rm(claudeOnPath, { force: true });
      if (script === null) await symlink(BUNDLED_CLAUDE, claudeOnPath);
      else await writeFile(claudeOnPath, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    },
    async removeClaude() {
      await rm(claudeOnPath, { force: true });
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
      await rm(root, { recursive: true, force: true });
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

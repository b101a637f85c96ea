/**
 * Everything a real agent CLI needs to run offline and hermetically, for either agent: its
 * fake model server on 127.0.0.1, a temp root holding bin/ (the CLI, symlinked), home/,
 * work/ and the agent's own config home, and an environment built from scratch — PATH,
 * HOME, CODEX_HOME/CLAUDE_CONFIG_DIR all point at known values, nothing is inherited from
 * the developer's shell (their ~/.codex or ~/.claude would otherwise leak into the tests).
 * Used by the in-process harness (agent-harness.ts) and by tests that spawn the daemon as
 * a child process (kill -9) or drive it from a browser (e2e).
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CODEX_BINARY, codexConfigToml } from "./codex-home.js";
import { FakeAnthropic, type FakeAnthropicOptions } from "./fake-anthropic.js";
import { FakeOpenAiResponses, type FakeResponsesOptions } from "./fake-openai-responses.js";

/** The native CLI the Agent SDK ships (optional dependency, no download). */
export const BUNDLED_CLAUDE = join(
  dirname(createRequire(import.meta.url).resolve("@anthropic-ai/claude-agent-sdk-linux-x64/package.json")),
  "claude",
);

export type AgentKey = "claude_code" | "codex";
export const AGENTS: readonly AgentKey[] = ["claude_code", "codex"];

export interface FakeFor {
  claude_code: FakeAnthropic;
  codex: FakeOpenAiResponses;
}
export interface FakeOptionsFor {
  claude_code: FakeAnthropicOptions;
  codex: FakeResponsesOptions;
}

export interface AgentRig<K extends AgentKey = AgentKey> {
  readonly agent: K;
  readonly fake: FakeFor[K];
  readonly root: string;
  /** The only non-system folder on PATH: holds the agent's binary. */
  readonly binDir: string;
  readonly home: string;
  /** A scratch directory to use as a conversation's cwd. */
  readonly workDir: string;
  /** CLAUDE_CONFIG_DIR or CODEX_HOME. */
  readonly agentHome: string;
  /** The daemon's whole environment (mutable: a test may narrow PATH). */
  readonly env: NodeJS.ProcessEnv;
  /** Replace the agent's binary by a shell script body (faults), or put the real one back (null). */
  useAgentScript(script: string | null): Promise<void>;
  /** Take the agent's binary off PATH. */
  removeAgent(): Promise<void>;
  close(): Promise<void>;
}

/** PATH without the developer's folders: our bin, node's own (for `coffer`), the system's. */
export function hermeticPath(binDir: string): string {
  return [binDir, dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
}

export async function makeAgentRig<K extends AgentKey>(
  agent: K,
  options: { fake?: FakeOptionsFor[K]; env?: NodeJS.ProcessEnv } = {},
): Promise<AgentRig<K>> {
  const root = await mkdtemp(join(tmpdir(), `coffer-${agent}-`));
  const [binDir, home, workDir, agentHome, tmp] = ["bin", "home", "work", "agent-home", "tmp"].map((d) => join(root, d)) as [
    string, string, string, string, string,
  ];
  await Promise.all([binDir, home, workDir, agentHome, tmp].map((d) => mkdir(d, { recursive: true })));
  const binary = agent === "claude_code" ? BUNDLED_CLAUDE : CODEX_BINARY;
  if (!existsSync(binary)) throw new Error(`${agent} binary missing at ${binary}; run npm install`);
  const onPath = join(binDir, agent === "claude_code" ? "claude" : "codex");
  await symlink(binary, onPath);

  let fake: FakeAnthropic | FakeOpenAiResponses;
  let agentEnv: Record<string, string>;
  if (agent === "claude_code") {
    const f = await FakeAnthropic.start(options.fake as FakeAnthropicOptions | undefined);
    fake = f;
    agentEnv = { ...f.clientEnv(), CLAUDE_CONFIG_DIR: agentHome };
  } else {
    const f = await FakeOpenAiResponses.start(options.fake as FakeResponsesOptions | undefined);
    fake = f;
    await writeFile(join(agentHome, "config.toml"), codexConfigToml(f.baseUrl));
    agentEnv = { COFFER_CODEX_HOME: agentHome, CODEX_HOME: agentHome, FAKE_OPENAI_API_KEY: "dummy" };
  }
  const env: NodeJS.ProcessEnv = {
    PATH: hermeticPath(binDir),
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    // A known shell: without SHELL the Claude CLI starts seconds slower (an 8 s watchdog test
    // timed out on its cold start), and its Bash tool needs one anyway.
    SHELL: "/bin/bash",
    // A Claude home that is ours alone, so the developer's never leaks in even if read.
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    CODEX_HOME: join(home, ".codex"),
    ...agentEnv,
    ...options.env,
  };
  return {
    agent,
    fake: fake as FakeFor[K],
    root,
    binDir,
    home,
    workDir,
    agentHome,
    env,
    async useAgentScript(script) {
      await rm(onPath, { force: true });
      if (script === null) await symlink(binary, onPath);
      else {
        await writeFile(onPath, `#!/bin/sh\n${script}\n`);
        await chmod(onPath, 0o755);
      }
    },
    async removeAgent() {
      await rm(onPath, { force: true });
    },
    async close() {
      await fake.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

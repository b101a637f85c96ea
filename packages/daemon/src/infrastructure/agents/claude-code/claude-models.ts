import type { SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import type { AgentModel } from "../../../application/ports.js";
import { findOnPath } from "../../system/path-lookup.js";
import { ensureWorkspaceDir } from "../workspace-dir.js";
import { ClaudeProcess } from "./claude-process.js";
import { InputQueue } from "./input-queue.js";
import { childEnv } from "./session-options.js";

/** Starting `claude` and reading its init answer takes a second or two; past this it is not answering. */
const LIST_TIMEOUT_MS = 30_000;

/**
 * The models Claude Code offers (the SDK's `supportedModels()`, answered from the CLI's
 * initialize reply — no model request is made), read from a short-lived `claude` that is
 * given no prompt and closed at once. Ids are what its `--model` takes (`default`, `opus`…).
 */
export async function listClaudeModels(env: NodeJS.ProcessEnv, cwd: string): Promise<AgentModel[]> {
  const executable = findOnPath("claude", env.PATH);
  if (!executable) throw new Error("no `claude` on the daemon's PATH");
  await ensureWorkspaceDir(cwd); // the default workspace is made on first use; this may be it
  const { query } = await import("@anthropic-ai/claude-agent-sdk");
  const input = new InputQueue<SDKUserMessage>();
  let proc: ClaudeProcess | null = null;
  const q = query({
    prompt: input,
    options: {
      pathToClaudeCodeExecutable: executable,
      spawnClaudeCodeProcess: (options) => (proc = new ClaudeProcess(options)),
      cwd,
      env: childEnv(env),
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const models = await Promise.race([
      q.supportedModels(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${LIST_TIMEOUT_MS / 1000} s`)), LIST_TIMEOUT_MS);
      }),
    ]);
    return models.filter((m) => m.value).map((m) => ({ id: m.value, label: m.displayName || null, description: m.description || null }));
  } finally {
    clearTimeout(timer);
    input.close();
    q.close();
    (proc as ClaudeProcess | null)?.kill("SIGTERM");
  }
}

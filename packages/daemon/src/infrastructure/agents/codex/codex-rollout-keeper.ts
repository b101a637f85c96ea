/**
 * Codex's side of a conversation (issue 24): a thread resumes from its rollout,
 * `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, which the owner (or a
 * cleanup) may remove. After each settled turn Coffer copies that one file; right before a
 * `thread/resume` it puts it back at the same place if Codex lost it.
 */
import { access, readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Logger } from "../../../application/ports.js";
import type { AgentSessionKeeper, SessionCopies, SessionRestore } from "../../../application/agent-sessions/session-keeper-ports.js";
import { relativeToHome, underHome } from "../kept-session-path.js";
import { resolveCodexLaunch } from "./codex-launch.js";

const AGENT = "codex";
const THREAD_ID = /^[0-9A-Za-z-]{8,64}$/;
const exists = (path: string) => access(path).then(() => true, () => false);

export function codexHome(env: NodeJS.ProcessEnv): string {
  return resolveCodexLaunch(env).env.CODEX_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".codex");
}

export class CodexRolloutKeeper implements AgentSessionKeeper {
  constructor(
    private readonly copies: SessionCopies,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logger?: Logger,
  ) {}

  async keep(conversationId: string, threadId: string, at?: string | null): Promise<void> {
    try {
      const file = at && (await exists(at)) ? at : await this.find(threadId);
      const relative = file && relativeToHome(this.home(), file);
      if (!file || !relative) return;
      await this.copies.save(AGENT, conversationId, { sessionId: threadId, relative }, file);
    } catch (err) {
      this.logger?.warn("could not keep a copy of the Codex rollout", { conversation: conversationId, err: String(err) });
    }
  }

  async ensure(conversationId: string, threadId: string): Promise<SessionRestore> {
    if (await this.find(threadId)) return "present";
    try {
      const home = this.home();
      return (await this.copies.restore(AGENT, conversationId, threadId, (rel) => underHome(home, rel))) ? "restored" : "lost";
    } catch (err) {
      this.logger?.warn("could not put the Codex rollout back", { conversation: conversationId, err: String(err) });
      return "lost";
    }
  }

  forget(conversationId: string): Promise<void> {
    return this.copies.remove(AGENT, conversationId);
  }

  private home(): string {
    return codexHome(this.env);
  }

  /** The thread's rollout, newest day first (a thread is usually recent). */
  private async find(threadId: string): Promise<string | null> {
    if (!THREAD_ID.test(threadId)) return null;
    const suffix = `-${threadId}.jsonl`;
    const walk = async (dir: string, depth: number): Promise<string | null> => {
      const names = (await readdir(dir).catch(() => [] as string[])).sort().reverse();
      if (depth === 3) {
        const hit = names.find((n) => n.startsWith("rollout-") && n.endsWith(suffix));
        return hit ? join(dir, hit) : null;
      }
      for (const name of names) {
        const found = await walk(join(dir, name), depth + 1);
        if (found) return found;
      }
      return null;
    };
    return walk(join(this.home(), "sessions"), 0);
  }
}

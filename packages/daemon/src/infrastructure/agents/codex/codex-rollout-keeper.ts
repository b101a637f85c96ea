/**
 * Codex's side of a conversation (issue 24): a thread resumes from its rollout,
 * `<CODEX_HOME>/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, which the owner (or a
 * cleanup) may remove. After each settled turn Coffer copies that one file; right before a
 * `thread/resume` it puts it back at the same place if Codex lost it.
 */
import { readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { FileSessionKeeper } from "../file-session-keeper.js";
import { resolveCodexLaunch } from "./codex-launch.js";

const AGENT = "codex";
const THREAD_ID = /^[0-9A-Za-z-]{8,64}$/;

export function codexHome(env: NodeJS.ProcessEnv): string {
  return resolveCodexLaunch(env).env.CODEX_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".codex");
}

export class CodexRolloutKeeper extends FileSessionKeeper {
  protected readonly agent = AGENT;
  protected readonly fileName = "Codex rollout";

  protected home(): string {
    return codexHome(this.env);
  }

  /** The thread's rollout, newest day first (a thread is usually recent). */
  protected async find(threadId: string): Promise<string | null> {
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

/**
 * Claude Code's side of a conversation (issue 24): the CLI resumes a session from its transcript,
 * `<config dir>/projects/<cwd slug>/<session id>.jsonl` (config dir: CLAUDE_CONFIG_DIR, else
 * ~/.claude), and deletes transcripts older than its `cleanupPeriodDays` (30 by default). After
 * each settled turn Coffer copies that one file (the rest of the folder — file history, subagent
 * logs — is not needed to resume); right before a resume it puts it back if the CLI lost it.
 */
import { access, readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { FileSessionKeeper } from "../file-session-keeper.js";

const AGENT = "claude_code";
/** Session ids are uuids; anything else is not looked up on disk. */
const SESSION_ID = /^[0-9A-Za-z-]{8,64}$/;

export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR?.trim() || join(env.HOME?.trim() || homedir(), ".claude");
}

export class ClaudeTranscriptKeeper extends FileSessionKeeper {
  protected readonly agent = AGENT;
  protected readonly fileName = "Claude Code transcript";

  protected home(): string {
    return claudeConfigDir(this.env);
  }

  /** The transcript of `sessionId` in whichever project folder the CLI wrote it (one per cwd). */
  protected async find(sessionId: string): Promise<string | null> {
    if (!SESSION_ID.test(sessionId)) return null;
    const projects = join(this.home(), "projects");
    const dirs = await readdir(projects).catch(() => [] as string[]);
    for (const dir of dirs) {
      const file = join(projects, dir, `${sessionId}.jsonl`);
      if (await access(file).then(() => true, () => false)) return file;
    }
    return null;
  }
}

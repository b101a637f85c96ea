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
import type { Logger } from "../../../application/ports.js";
import type { AgentSessionKeeper, SessionCopies, SessionRestore } from "../../../application/agent-sessions/session-keeper-ports.js";
import { relativeToHome, underHome } from "../kept-session-path.js";

const AGENT = "claude_code";
/** Session ids are uuids; anything else is not looked up on disk. */
const SESSION_ID = /^[0-9A-Za-z-]{8,64}$/;

export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR?.trim() || join(env.HOME?.trim() || homedir(), ".claude");
}

export class ClaudeTranscriptKeeper implements AgentSessionKeeper {
  constructor(
    private readonly copies: SessionCopies,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logger?: Logger,
  ) {}

  async keep(conversationId: string, sessionId: string): Promise<void> {
    try {
      const file = await this.find(sessionId);
      const relative = file && relativeToHome(this.home(), file);
      if (!file || !relative) return;
      await this.copies.save(AGENT, conversationId, { sessionId, relative }, file);
    } catch (err) {
      this.logger?.warn("could not keep a copy of the Claude Code transcript", { conversation: conversationId, err: String(err) });
    }
  }

  async ensure(conversationId: string, sessionId: string): Promise<SessionRestore> {
    if (await this.find(sessionId)) return "present";
    try {
      const home = this.home();
      const restored = await this.copies.restore(AGENT, conversationId, sessionId, (rel) => underHome(home, rel));
      // Also on a pre-warm, which has no audit of its own: the log says the transcript came back.
      if (restored) this.logger?.info("claude transcript put back from Coffer's copy", { conversation: conversationId, sessionId });
      return restored ? "restored" : "lost";
    } catch (err) {
      this.logger?.warn("could not put the Claude Code transcript back", { conversation: conversationId, err: String(err) });
      return "lost";
    }
  }

  forget(conversationId: string): Promise<void> {
    return this.copies.remove(AGENT, conversationId);
  }

  private home(): string {
    return claudeConfigDir(this.env);
  }

  /** The transcript of `sessionId` in whichever project folder the CLI wrote it (one per cwd). */
  private async find(sessionId: string): Promise<string | null> {
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

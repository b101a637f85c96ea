import { access } from "node:fs/promises";
import type { Logger } from "../../application/ports.js";
import type { AgentSessionKeeper, SessionCopies, SessionRestore } from "../../application/agent-sessions/session-keeper-ports.js";
import { relativeToHome, underHome } from "./kept-session-path.js";

const exists = (path: string) => access(path).then(() => true, () => false);

/**
 * An agent whose CLI resumes from one file under its own home (Claude's transcript, Codex's
 * rollout): after each settled turn Coffer copies that file; right before a resume it puts it
 * back if the CLI lost it. Each agent says where its home is and how to find the file.
 */
export abstract class FileSessionKeeper implements AgentSessionKeeper {
  constructor(
    private readonly copies: SessionCopies,
    protected readonly env: NodeJS.ProcessEnv,
    private readonly logger?: Logger,
  ) {}

  /** The agent key the copies are filed under, and what the log calls the file. */
  protected abstract readonly agent: string;
  protected abstract readonly fileName: string;
  /** The CLI's home (its config dir) in this environment. */
  protected abstract home(): string;
  /** The session's file where the CLI keeps it, or null when it is not there. */
  protected abstract find(sessionId: string): Promise<string | null>;

  /** `at`: where the CLI said it wrote the file, when it said so (looked up otherwise). */
  async keep(conversationId: string, sessionId: string, at?: string | null): Promise<void> {
    try {
      const file = at && (await exists(at)) ? at : await this.find(sessionId);
      const relative = file && relativeToHome(this.home(), file);
      if (!file || !relative) return;
      await this.copies.save(this.agent, conversationId, { sessionId, relative }, file);
    } catch (err) {
      this.logger?.warn(`could not keep a copy of the ${this.fileName}`, { conversation: conversationId, err: String(err) });
    }
  }

  async ensure(conversationId: string, sessionId: string): Promise<SessionRestore> {
    if (await this.find(sessionId)) return "present";
    try {
      const home = this.home();
      const restored = await this.copies.restore(this.agent, conversationId, sessionId, (rel) => underHome(home, rel));
      // Also on a pre-warm, which has no audit of its own: the log says the file came back.
      if (restored) this.logger?.info(`${this.fileName} put back from Coffer's copy`, { conversation: conversationId, sessionId });
      return restored ? "restored" : "lost";
    } catch (err) {
      this.logger?.warn(`could not put the ${this.fileName} back`, { conversation: conversationId, err: String(err) });
      return "lost";
    }
  }

  forget(conversationId: string): Promise<void> {
    return this.copies.remove(this.agent, conversationId);
  }
}

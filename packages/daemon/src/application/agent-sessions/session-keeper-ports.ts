/**
 * Coffer keeps the agent's side of a conversation too (issue 24): the file an agent CLI resumes
 * a session from (Claude Code's transcript, Codex's rollout) is copied into the data dir after
 * each settled turn, and put back right before a resume when the CLI has lost it. Each agent
 * implements the keeper in its own infrastructure folder (it alone knows where its CLI writes);
 * the private copies themselves live behind {@link SessionCopies}.
 */

/** The one line the thread shows when a lost session was restarted with the conversation so far. */
export const RESEEDED_NOTICE = "The agent had lost this conversation's session; it was restarted with the conversation so far.";

/** What a resume found: the CLI's file was there, was put back from Coffer's copy, or is lost. */
export type SessionRestore = "present" | "restored" | "lost";

export interface AgentSessionKeeper {
  /**
   * After a settled turn: copy what the CLI needs to resume `sessionId` (replacing the previous
   * copy). Never throws: a copy that fails is logged, and the next turn tries again.
   * `at` is where the CLI said the file is, when it says so (Codex's thread path).
   */
  keep(conversationId: string, sessionId: string, at?: string | null): Promise<void>;
  /**
   * Right before resuming `sessionId`: when the CLI's file is gone and Coffer's copy is whole,
   * put it back (same path, private mode). `lost` = no copy of this session, or a corrupt one.
   */
  ensure(conversationId: string, sessionId: string): Promise<SessionRestore>;
  /** The conversation is deleted (by the owner or retention): its copy goes with it. */
  forget(conversationId: string): Promise<void>;
}

/** One kept file: its bytes and where it lives relative to the CLI's home (CLAUDE_CONFIG_DIR, CODEX_HOME). */
export interface KeptSession {
  readonly sessionId: string;
  /** Path under the CLI's home, e.g. `projects/-work/<id>.jsonl` or `sessions/2026/12/04/rollout-….jsonl`. */
  readonly relative: string;
}

/** The private store of copies: `<data dir>/agent-sessions/<agent>/<conversation>/`. */
export interface SessionCopies {
  /** Atomically replaces the conversation's copy with `source` (a file of the CLI's). False when `source` is gone. */
  save(agentKey: string, conversationId: string, kept: KeptSession, source: string): Promise<boolean>;
  /** Writes the copy back to `target` (0600, atomic) when it is of `sessionId` and whole; false otherwise. */
  restore(agentKey: string, conversationId: string, sessionId: string, target: (relative: string) => string | null): Promise<boolean>;
  remove(agentKey: string, conversationId: string): Promise<void>;
}

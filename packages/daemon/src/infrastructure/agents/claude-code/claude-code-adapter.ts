import { readFileSync } from "node:fs";
import type { AgentEvent } from "@coffer/protocol";
import { RESEEDED_NOTICE, type AgentSessionKeeper } from "../../../application/agent-sessions/session-keeper-ports.js";
import { stringField } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";
import type { AdapterServices, AgentAdapter, TurnInput } from "../../../application/ports.js";
import type { GatewayAccess } from "../../../application/gateway/gateway-ports.js";
import { findOnPath } from "../../system/path-lookup.js";
import { FAULT, notInstalled } from "./process-fault.js";
import { ClaudeTurnMapper } from "./sdk-message-mapper.js";
import { defaultModel, type SessionSpec } from "./session-options.js";
import type { ClaudeSession, ImageBlock } from "./claude-session.js";
import type { SessionPool } from "./session-pool.js";

export interface ClaudeAdapterContext {
  readonly pool: SessionPool;
  readonly env: NodeJS.ProcessEnv;
  readonly workspaceDir: string;
  readonly gateway?: () => GatewayAccess | undefined;
  /** A spare pre-warmed for the draft was taken: its stand-in gateway id now means this conversation. */
  readonly adopted?: (standInId: string) => void;
  /** Keeps the session's transcript in the data dir and puts it back before a resume (absent: not kept). */
  readonly keeper?: AgentSessionKeeper;
}

/**
 * One Claude Code turn: takes the conversation's warm session (or starts one that
 * resumes the stored session id), maps its messages, persists the session id, and
 * retries once as a fresh session when the stored one cannot be resumed.
 */
export class ClaudeCodeAdapter implements AgentAdapter {
  readonly model?: string;
  /** The session running this adapter's turn, while it runs: what a steer goes into. */
  private session: ClaudeSession | null = null;

  constructor(
    private readonly conversation: Conversation,
    private readonly services: AdapterServices,
    private readonly context: ClaudeAdapterContext,
  ) {
    this.model = stringField(conversation.agentConfig, "model");
  }

  steer(text: string): Promise<boolean> {
    return this.session?.steer(text) ?? Promise.resolve(false);
  }

  async *runTurn(input: TurnInput, signal: AbortSignal): AsyncGenerator<AgentEvent> {
    const executable = findOnPath("claude", this.context.env.PATH);
    if (!executable) {
      yield notInstalled();
      return;
    }
    const config = input.conversation.agentConfig;
    const model = stringField(config, "model");
    const gateway = this.context.gateway?.();
    const spec: SessionSpec = {
      executable,
      cwd: stringField(config, "cwd") ?? this.context.workspaceDir,
      model: model ?? defaultModel(this.context.env),
      ...(stringField(config, "session_id") ? { resume: stringField(config, "session_id") } : {}),
      env: this.context.env,
      ...(gateway ? { gateway } : {}),
    };
    const { pool, keeper } = this.context;
    const id = this.conversation.id;
    let savedSessionId = spec.resume;
    // Right before the resume, so Claude's own cleanup cannot remove it in between: a transcript
    // the CLI lost comes back from Coffer's copy. "lost" is left to the CLI to confirm (stale below).
    const restore = spec.resume && keeper ? await keeper.ensure(id, spec.resume) : null;
    if (restore === "restored") this.services.audit("agent_session_restored", { agent: "claude_code", session_id: spec.resume ?? null });
    let session = await pool.acquire(id, spec, this.context.adopted);
    let text = input.text;
    const images = imageBlocks(input.images ?? []);
    try {
      for (let attempt = 1; ; attempt++) {
        let stale = false;
        this.session = session;
        for await (const step of session.runTurn(text, signal, new ClaudeTurnMapper(model ?? null), (qs, toolUseId) => this.services.ask(qs, toolUseId ? { toolUseId } : undefined), images)) {
          if (step.sessionId && step.sessionId !== savedSessionId) {
            savedSessionId = step.sessionId;
            this.services.saveSessionId(step.sessionId);
          }
          if (step.staleSession) stale = true;
          // Kept before the turn_done goes out: the engine stops reading at a terminal event.
          if (savedSessionId && step.events.some((e) => e.type === "turn_done")) this.keep(session, savedSessionId);
          yield* step.events;
        }
        if (!stale || signal.aborted) return;
        if (attempt > 1) {
          yield { type: "turn_error", code: FAULT.sessionLost, message: "Claude Code could not start a session for this conversation" };
          return;
        }
        // The CLI has no transcript for the stored id (its config dir was cleared, or the
        // cwd changed): start over rather than fail every turn from now on.
        this.services.audit("claude_session_reset", { stale_session_id: spec.resume ?? null, reason: "session_not_found" });
        this.services.saveSessionId(undefined);
        savedSessionId = undefined;
        const { resume: _stale, ...fresh } = spec;
        session = await pool.replace(id, fresh, this.context.adopted);
        // Never a silent reset: the fresh session starts from Coffer's history of the conversation,
        // and the thread says so in one line.
        if (this.services.reseed) {
          text = await this.services.reseed(input.text, signal);
          this.services.audit("agent_session_reseeded", { agent: "claude_code", lost_session_id: spec.resume ?? null, restore: restore ?? "none" });
          yield { type: "notice", code: "agent_session_reseeded", text: RESEEDED_NOTICE };
        }
      }
    } finally {
      this.session = null;
      pool.release(id, session);
    }
  }

  /**
   * Copies the transcript now and again when the process exits: the CLI may still be writing
   * the turn's last lines when its result arrives, and an exited process has written them all.
   */
  private keep(session: ClaudeSession, sessionId: string): void {
    const { keeper } = this.context;
    if (!keeper) return;
    const id = this.conversation.id;
    void keeper.keep(id, sessionId);
    // One exit copy per process, of its latest session id, however many turns it served.
    const hooked = KEEP_ON_EXIT.has(session);
    KEEP_ON_EXIT.set(session, sessionId);
    if (!hooked) void session.exited.then(() => keeper.keep(id, KEEP_ON_EXIT.get(session) ?? sessionId));
  }
}

/** Warm sessions whose exit already copies the transcript → the session id to copy. */
const KEEP_ON_EXIT = new WeakMap<ClaudeSession, string>();

/**
 * The message's images as content blocks, read from their agent-files copies. One that cannot be
 * read is left out (the text still names the file), never a failed turn.
 */
function imageBlocks(images: readonly { readonly path: string; readonly mediaType: string }[]): ImageBlock[] {
  const blocks: ImageBlock[] = [];
  for (const image of images) {
    try {
      blocks.push({ type: "image", source: { type: "base64", media_type: image.mediaType, data: readFileSync(image.path).toString("base64") } });
    } catch {
      // Gone between the copy and the turn (a delete racing it): the text still names it.
    }
  }
  return blocks;
}

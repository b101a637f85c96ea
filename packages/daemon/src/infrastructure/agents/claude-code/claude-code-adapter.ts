import type { AgentEvent } from "@coffer/protocol";
import { stringField } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";
import type { AdapterServices, AgentAdapter, TurnInput } from "../../../application/ports.js";
import type { GatewayAccess } from "../../../application/gateway/gateway-ports.js";
import { findOnPath } from "../../system/path-lookup.js";
import { FAULT, notInstalled } from "./process-fault.js";
import { ClaudeTurnMapper } from "./sdk-message-mapper.js";
import { defaultModel, type SessionSpec } from "./session-options.js";
import type { ClaudeSession } from "./claude-session.js";
import type { SessionPool } from "./session-pool.js";

export interface ClaudeAdapterContext {
  readonly pool: SessionPool;
  readonly env: NodeJS.ProcessEnv;
  readonly workspaceDir: string;
  readonly gateway?: () => GatewayAccess | undefined;
  /** A spare pre-warmed for the draft was taken: its stand-in gateway id now means this conversation. */
  readonly adopted?: (standInId: string) => void;
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
    const { pool } = this.context;
    const id = this.conversation.id;
    let savedSessionId = spec.resume;
    let session = await pool.acquire(id, spec, this.context.adopted);
    try {
      for (let attempt = 1; ; attempt++) {
        let stale = false;
        this.session = session;
        for await (const step of session.runTurn(input.text, signal, new ClaudeTurnMapper(model ?? null), (qs, toolUseId) => this.services.ask(qs, toolUseId ? { toolUseId } : undefined))) {
          if (step.sessionId && step.sessionId !== savedSessionId) {
            savedSessionId = step.sessionId;
            this.services.saveSessionId(step.sessionId);
          }
          if (step.staleSession) stale = true;
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
      }
    } finally {
      this.session = null;
      pool.release(id, session);
    }
  }
}

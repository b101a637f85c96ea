/**
 * Which Codex thread each conversation talks to. A thread opened in the running
 * app-server is reused as is; after a daemon restart or an app-server crash it is
 * resumed from `agent_config.session_id`. A thread Codex no longer has is replaced by a
 * fresh one, once, and the owner can see that in the audit log.
 */
import type { AdapterServices, Logger } from "../../../application/ports.js";
import type { GatewayAccess } from "../../../application/gateway/gateway-ports.js";
import type { Conversation } from "../../../domain/conversation.js";
import { stringField } from "../../../domain/agent-config.js";
import type { LiveAppServer } from "./codex-app-server.js";
import { JsonRpcError } from "./json-rpc-connection.js";
import { threadResumeParams, threadStartParams, type ThreadSettings } from "./thread-params.js";

export interface OpenThread {
  readonly id: string;
  /** The model Codex reports for the thread (its configured default when none was named). */
  readonly model: string | null;
}

interface ThreadResponse {
  thread: { id: string };
  model?: string;
}

export class CodexThreads {
  /** conversation id → the thread open in a given app-server generation. */
  private readonly open = new Map<string, OpenThread & { generation: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly gateway?: (conversationId: string) => GatewayAccess | undefined,
  ) {}

  async openFor(live: LiveAppServer, conversation: Conversation, services: AdapterServices): Promise<OpenThread> {
    const known = this.open.get(conversation.id);
    if (known && known.generation === live.generation) return known;
    const settings: ThreadSettings = {
      cwd: stringField(conversation.agentConfig, "cwd"),
      model: stringField(conversation.agentConfig, "model"),
      gateway: this.gateway?.(conversation.id),
    };
    const stored = stringField(conversation.agentConfig, "session_id");
    const thread = stored ? await this.resume(live, stored, settings, services) : await this.start(live, settings);
    this.open.set(conversation.id, { ...thread, generation: live.generation });
    return thread;
  }

  forget(conversationId: string): void {
    this.open.delete(conversationId);
  }

  private async start(live: LiveAppServer, settings: ThreadSettings): Promise<OpenThread> {
    const res = await live.rpc.request<ThreadResponse>("thread/start", threadStartParams(settings));
    return { id: res.thread.id, model: res.model ?? null };
  }

  private async resume(live: LiveAppServer, threadId: string, settings: ThreadSettings, services: AdapterServices): Promise<OpenThread> {
    try {
      const res = await live.rpc.request<ThreadResponse>("thread/resume", threadResumeParams(threadId, settings));
      return { id: res.thread.id, model: res.model ?? null };
    } catch (err) {
      if (!isThreadNotFound(err)) throw err;
      const fresh = await this.start(live, settings);
      this.logger.warn("codex thread was gone; started a fresh one", { lost: threadId, fresh: fresh.id });
      services.audit("codex_thread_resume_lost", { lost_thread_id: threadId, new_thread_id: fresh.id, reason: err.message });
      return fresh;
    }
  }
}

/** Codex 0.171 answers `no rollout found for thread id …` (-32600) for an unknown thread. */
export function isThreadNotFound(err: unknown): err is JsonRpcError {
  return err instanceof JsonRpcError && /no rollout found|thread not found|not found/i.test(err.message);
}

import {
  AgentConfigOut,
  AgentListOut,
  ConversationListOut,
  ConversationOut,
  ErrorEnvelope,
  MessageListOut,
  type ErrorCode,
  PendingQueueOut,
  SendMessageAck,
  type AgentConfigPatch,
  type ConversationCreate,
  type PendingItemIn,
} from "@coffer/protocol";
import type { z } from "zod";
import { GuardError, type DaemonGuard } from "./daemon-guard.js";

/** An error the daemon answered with its envelope, or one the page raises itself: a transport failure (NETWORK_ERROR), a non-envelope answer (HTTP_ERROR), a process that failed the proof (DAEMON_NOT_VERIFIED). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "NETWORK_ERROR" | "HTTP_ERROR" | "DAEMON_NOT_VERIFIED",
    message: string,
    readonly details: Record<string, unknown> | null = null,
  ) {
    super(message);
  }
}

export interface ListParams {
  archived: boolean;
  q?: string;
  cursor?: string | null;
  limit?: number;
}

/** Every REST call the page makes, parsed with the protocol's own schemas. */
export class CofferApi {
  constructor(
    private readonly guard: DaemonGuard,
    private readonly base = "/api/v1",
  ) {}

  /** Headers for a new live-link connection: the daemon proves itself again first, with a fresh nonce. */
  async headers(): Promise<Record<string, string>> {
    return { authorization: await this.guard.authorization(true) };
  }

  private async authorization(): Promise<string> {
    try {
      return await this.guard.authorization();
    } catch (err) {
      if (err instanceof GuardError && err.reason === "network") {
        throw new ApiError(0, "NETWORK_ERROR", "The daemon cannot be reached.");
      }
      throw new ApiError(0, "DAEMON_NOT_VERIFIED", "The process on this port has not proven it is your Coffer daemon; nothing was sent.");
    }
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  /** One request, parsed with `schema` (null for 204s); the Vault and Settings modules build on it. */
  async call<S extends z.ZodType>(method: string, path: string, schema: S | null, body?: unknown): Promise<z.infer<S>> {
    const authorization = await this.authorization();
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        method,
        headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      this.guard.connectionLost();
      throw new ApiError(0, "NETWORK_ERROR", `The daemon cannot be reached (${(err as Error).message}).`);
    }
    const text = await res.text();
    const json: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) {
      const envelope = ErrorEnvelope.safeParse(json);
      if (envelope.success) throw new ApiError(res.status, envelope.data.error.code, envelope.data.error.message, envelope.data.error.details);
      throw new ApiError(res.status, "HTTP_ERROR", `The daemon answered ${res.status}.`);
    }
    return (schema ? schema.parse(json) : null) as z.infer<S>;
  }

  agents() {
    return this.call("GET", "/chat/agents", AgentListOut);
  }

  conversations({ archived, q, cursor, limit = 50 }: ListParams) {
    const p = new URLSearchParams({ archived: String(archived), limit: String(limit) });
    if (q) p.set("q", q);
    if (cursor) p.set("cursor", cursor);
    return this.call("GET", `/chat/conversations?${p}`, ConversationListOut);
  }

  conversation(id: string) {
    return this.call("GET", `/chat/conversations/${enc(id)}`, ConversationOut);
  }

  create(body: ConversationCreate) {
    return this.call("POST", "/chat/conversations", ConversationOut, body);
  }

  rename(id: string, title: string) {
    return this.call("PATCH", `/chat/conversations/${enc(id)}`, ConversationOut, { title });
  }

  archive(id: string) {
    return this.call("POST", `/chat/conversations/${enc(id)}/archive`, ConversationOut, {});
  }

  restore(id: string) {
    return this.call("POST", `/chat/conversations/${enc(id)}/unarchive`, ConversationOut, {});
  }

  remove(id: string) {
    return this.call("DELETE", `/chat/conversations/${enc(id)}`, null);
  }

  agentConfig(id: string) {
    return this.call("GET", `/chat/conversations/${enc(id)}/agent-config`, AgentConfigOut);
  }

  setModel(id: string, model: AgentConfigPatch["model"]) {
    return this.call("PATCH", `/chat/conversations/${enc(id)}/agent-config`, AgentConfigOut, { model });
  }

  messages(id: string, { before, limit = 100 }: { before?: number; limit?: number }) {
    const p = new URLSearchParams({ limit: String(limit) });
    if (before !== undefined) p.set("before", String(before));
    return this.call("GET", `/chat/conversations/${enc(id)}/messages?${p}`, MessageListOut);
  }

  send(id: string, text: string, clientId: string) {
    return this.call("POST", `/chat/conversations/${enc(id)}/messages`, SendMessageAck, { text, client_id: clientId });
  }

  /** The queue with every text whole (`queue_changed` frames carry only previews). */
  pending(id: string) {
    return this.call("GET", `/chat/conversations/${enc(id)}/pending`, PendingQueueOut);
  }

  /** `resume: false` edits the queue without unpausing it. */
  setPending(id: string, pending: PendingItemIn[], resume = true) {
    return this.call("PUT", `/chat/conversations/${enc(id)}/pending`, PendingQueueOut, { pending, resume });
  }

  interrupt(id: string) {
    return this.call("POST", `/chat/conversations/${enc(id)}/interrupt`, null, {});
  }
}

function enc(id: string): string {
  return encodeURIComponent(id);
}

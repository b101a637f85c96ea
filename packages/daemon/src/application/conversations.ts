import type {
  AuditActor,
  ConversationCreate,
  ConversationIdCandidate,
  ConversationListOut,
  ConversationListQuery,
  ConversationOut,
} from "@coffer/protocol";
import type { AttachmentService } from "./attachments/attachment-service.js";
import { CONVERSATION_PAGE, SEARCH_PAGE } from "@coffer/protocol";
import { PLACEHOLDER_TITLE, type Conversation } from "../domain/conversation.js";
import { ConversationIdAmbiguous, ConversationNotFound, CursorInvalid } from "../domain/errors.js";
import type { AgentRegistry } from "./agent-registry.js";
import type { AuditSink } from "./audit-log.js";
import type { ConversationViews } from "./conversation-views.js";
import type { Clock, ConversationStore, IdGenerator, Logger, Transactor } from "./ports.js";
import type { ConversationListEvents } from "./turns/list-events.js";
import type { BusHub } from "./turns/bus-hub.js";
import type { TurnLifecycle } from "./turns/turn-lifecycle.js";

export interface ConversationServiceDeps {
  /** A conversation's rows and its audit row are written in one transaction. */
  readonly tx: Transactor;
  readonly store: ConversationStore;
  readonly audit: AuditSink;
  readonly registry: AgentRegistry;
  /** The running turns: a live one is discarded on delete. */
  readonly turns: Pick<TurnLifecycle, "discard">;
  readonly hub: BusHub;
  readonly listEvents: ConversationListEvents;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Finding and showing a conversation, shared with its settings and its thread. */
  readonly views: ConversationViews;
  /** Files linked from the conversation's messages: released (rows, then unshared bytes) when it is deleted. */
  readonly attachments?: Pick<AttachmentService, "linkedTo" | "release" | "forgetCopies">;
}

/** Candidates an ambiguous id prefix lists. */
const ID_CANDIDATES = 10;

/**
 * Conversation use cases: create, find, list, rename, archive, delete. Every surface (HTTP, CLI
 * via HTTP, channels) calls these; a conversation's settings and its thread are their own
 * services (conversation-settings.ts, conversation-thread.ts).
 */
export class ConversationService {
  constructor(private readonly deps: ConversationServiceDeps) {}

  async create(input: ConversationCreate, actor: AuditActor = "user"): Promise<ConversationOut> {
    const { tx, store, registry, clock, ids } = this.deps;
    const provider = registry.get(input.agent_key);
    // Validate before writing: a rejected config persists nothing.
    const agentConfig = await provider.initConversation(input.agent_config ?? {});
    const id = ids();
    const now = clock.now();
    tx.transaction(() => {
      store.insertConversation({
        id,
        agentKey: provider.agentKey,
        title: input.title ?? PLACEHOLDER_TITLE,
        titleSetByOwner: input.title !== undefined,
        agentConfig,
        channel: input.channel_binding
          ? { channel: input.channel_binding.channel, chatId: input.channel_binding.chat_id, channelId: input.channel_binding.channel_id ?? null, threadId: input.channel_binding.thread_id ?? null }
          : null,
        now,
      });
      this.deps.audit(actor, "conversation_created", { conversation_id: id, agent_key: provider.agentKey }, now);
    });
    const out = this.out(this.require(id));
    this.deps.listEvents.emit({ type: "conversation_created", conversation: out });
    return out;
  }

  /**
   * A unique id prefix → its conversation, archived ones included (like git's short hashes).
   * Resolved here, not in each client: one indexed range read instead of a client paging
   * through every conversation, and every surface gets the same answer and error.
   */
  resolveIdPrefix(prefix: string): ConversationIdCandidate {
    const hits = this.deps.store.conversationsWithIdPrefix(prefix.toLowerCase(), ID_CANDIDATES + 1);
    const candidate = (c: Conversation): ConversationIdCandidate => ({
      id: c.id,
      title: c.title,
      updated_at: new Date(c.updatedAt).toISOString(),
      archived: c.archivedAt !== null,
    });
    if (!hits.length) throw new ConversationNotFound(prefix);
    if (hits.length > 1) {
      const shown = hits.slice(0, ID_CANDIDATES).sort((a, b) => b.updatedAt - a.updatedAt);
      throw new ConversationIdAmbiguous(prefix, shown.map(candidate), hits.length > ID_CANDIDATES);
    }
    return candidate(hits[0]!);
  }

  get(id: string): ConversationOut {
    return this.out(this.require(id));
  }

  list(query: ConversationListQuery): ConversationListOut {
    const q = query.q?.trim() || undefined;
    // A search reads ~100 small statements (the plan's probes, then each result's snippet): in
    // one read transaction they see one snapshot and take SQLite's WAL read lock once, not once
    // a statement (docs/decisions.md, "The search route's own cost").
    return q === undefined ? this.page(query, undefined) : this.deps.tx.transaction(() => this.page(query, q));
  }

  private page(query: ConversationListQuery, q: string | undefined): ConversationListOut {
    const limit = query.limit ?? (q === undefined ? CONVERSATION_PAGE : SEARCH_PAGE);
    const rows = this.deps.store.listConversations({
      archived: query.archived ?? false,
      q,
      limit: limit + 1,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      conversations: page.map((c) => (q === undefined ? this.out(c) : { ...this.out(c), match: this.deps.store.searchMatch(c, q) })),
      next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
    };
  }

  rename(id: string, title: string): ConversationOut {
    this.require(id);
    this.deps.store.renameConversation(id, title, true, this.deps.clock.now());
    return this.changed(id);
  }

  archive(id: string): ConversationOut {
    this.require(id);
    this.deps.store.setArchived(id, this.deps.clock.now());
    return this.changed(id);
  }

  /** Restoring counts as activity, so the retention worker does not archive it again at once. */
  unarchive(id: string): ConversationOut {
    this.require(id);
    const { tx, store, clock } = this.deps;
    tx.transaction(() => {
      store.setArchived(id, null);
      store.touchConversation(id, clock.now());
    });
    return this.changed(id);
  }

  /** Cancels and discards a live turn, removes everything, and ends every subscriber's stream. */
  async delete(id: string, actor: AuditActor = "user"): Promise<void> {
    const { tx, store, audit, registry, turns, hub, clock, logger } = this.deps;
    const conv = this.require(id);
    await turns.discard(id);
    const provider = registry.find(conv.agentKey);
    await provider?.onConversationDeleted(id).catch((err: unknown) => {
      logger.warn("agent cleanup after delete failed", { conversation: id, err: String(err) });
    });
    const linked = this.deps.attachments?.linkedTo(id) ?? [];
    tx.transaction(() => {
      store.deleteConversation(id);
      audit(actor, "conversation_deleted", { conversation_id: id }, clock.now());
    });
    // Its links went with its rows; an attachment no other message names goes now (retention too).
    this.deps.attachments?.release(linked);
    this.deps.attachments?.forgetCopies(id);
    hub.close(id);
    this.deps.listEvents.emit({ type: "conversation_deleted", id });
  }

  private require(id: string): Conversation {
    return this.deps.views.require(id);
  }

  private out(conv: Conversation): ConversationOut {
    return this.deps.views.out(conv);
  }

  private changed(id: string): ConversationOut {
    return this.deps.views.changed(id);
  }
}

function encodeCursor(c: Conversation): string {
  return Buffer.from(JSON.stringify([c.updatedAt, c.id])).toString("base64url");
}

function decodeCursor(cursor: string): { updatedAt: number; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && typeof value[0] === "number" && typeof value[1] === "string") {
      return { updatedAt: value[0], id: value[1] };
    }
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  throw new CursorInvalid();
}

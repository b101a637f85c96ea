import type { AgentEvent, AgentGlyph, AgentSetupOut, AttachmentOut, AuditAction, ContentBlock, MessageOut, Question, QuestionAnswer, SearchMatch, TurnFailureCode } from "@coffer/protocol";
import type { AgentConfig } from "../domain/agent-config.js";
import type { ChannelBinding, Conversation } from "../domain/conversation.js";

// ---- Agents (the provider seam: docs/architecture.md, "Adding an agent") -------

export interface TurnInput {
  readonly conversation: Conversation;
  /** The user message this turn answers. Managed agents keep prior context in their own session. */
  readonly text: string;
  /**
   * Images the message carries, as read-only copies the agent may read (agent-files/): an agent
   * that takes images natively gets them beside the text (Codex `localImage`); the text still
   * names every file, so an agent that does not reads them as files.
   */
  readonly images?: readonly { readonly path: string; readonly mediaType: string }[];
}

export interface AgentAdapter {
  /** The model this adapter will run on, when known before the turn. */
  readonly model?: string;
  /** Yields exactly one terminal event (turn_done | turn_error) unless the signal aborts. */
  runTurn(input: TurnInput, signal: AbortSignal): AsyncIterable<AgentEvent>;
  /**
   * Optional: hand the running turn one more user message, read at the agent's next model
   * request. Resolves true once the agent has taken it, false when it cannot (no turn running
   * here, the turn already ending): the engine then queues the text, so false must mean the
   * agent will never see it.
   */
  steer?(text: string): Promise<boolean>;
}

/** One model as the agent names it. */
export interface AgentModel {
  readonly id: string;
  readonly label: string | null;
  readonly description: string | null;
}

export interface AgentProvider {
  readonly agentKey: string;
  readonly displayName: string;
  /** How to install and sign in to the agent's CLI: the page shows it while the agent is not on PATH. */
  readonly setup: AgentSetupOut;
  /** Which of the page's marks stands for this agent. */
  readonly glyph: AgentGlyph;
  available(): Promise<boolean>;
  /**
   * The models the agent itself says it can run on (ids as its model option takes them).
   * Absent when the agent cannot say; rejects with a reason the owner can read.
   */
  listModels?(): Promise<AgentModel[]>;
  /** Validate and normalise a new conversation's config, or throw AgentConfigRejected. */
  initConversation(config: unknown): Promise<AgentConfig>;
  buildAdapter(conversation: Conversation, services: AdapterServices): Promise<AgentAdapter>;
  onConversationDeleted(conversationId: string): Promise<void>;
  /** Release processes and sessions (daemon shutdown). */
  close?(): Promise<void>;
  /**
   * Optional: start the agent's process ahead of the next turn, because the owner is typing
   * to it (POST /chat/agents/{agent}/prewarm). Within the warm pool's cap; never throws for
   * a target it cannot warm (it answers "skipped").
   */
  prewarm?(target: PrewarmTarget): Promise<PrewarmOutcome>;
  /** Optional: processes the agent shares between conversations, outside the warm pool (stats). */
  sharedProcesses?(): SharedAgentProcess[];
}

/** What to pre-warm: an existing conversation, or a draft's start settings. */
export interface PrewarmTarget {
  readonly conversation: Conversation | null;
  /** A draft's working directory and model, as the conversation would be created with. */
  readonly cwd?: string;
  readonly model?: string;
}

export type PrewarmOutcome = "started" | "warm" | "skipped";

export interface SharedAgentProcess {
  readonly pid: number;
  /** Turns running on it now. */
  readonly busy: boolean;
}

/** What the engine lends an adapter: ways to persist what the agent tells it. */
export interface AdapterServices {
  /** Persist the agent's session id into agent_config (never touching cwd or model). */
  saveSessionId(sessionId: string | undefined): void;
  audit(action: AuditAction, details: Record<string, unknown>): void;
  /**
   * Ask the owner and wait: the answers, one per question in order. Rejects when the
   * conversation's turn stops (interrupt, timeout, shutdown) or no turn is running. The wait
   * does not count as agent silence.
   */
  ask(questions: readonly Question[], asked?: { readonly toolUseId?: string }): Promise<QuestionAnswer[]>;
  /**
   * The first prompt of a fresh session answering `text`, seeded with Coffer's own history of the
   * conversation: for an agent whose session is lost for good (application/agent-sessions).
   * Absent (unit rigs): the adapter sends `text` alone.
   */
  reseed?(text: string, signal?: AbortSignal): Promise<string>;
}

// ---- Persistence -------------------------------------------------------------

export interface NewConversation {
  readonly id: string;
  readonly agentKey: string;
  readonly title: string;
  readonly titleSetByOwner: boolean;
  readonly agentConfig: AgentConfig;
  readonly channel: ChannelBinding | null;
  readonly now: number;
}

export interface ConversationPageQuery {
  readonly archived: boolean;
  readonly q?: string;
  readonly limit: number;
  readonly after?: { readonly updatedAt: number; readonly id: string };
}

export interface PendingRow {
  readonly id: string;
  readonly text: string;
  readonly clientId: string | null;
  /** Files queued with the message, in order (kept through edits, reorders and send-now). */
  readonly attachments?: readonly AttachmentOut[];
  /** The text is a recording's transcript (PendingItem.voice); kept until it runs. */
  readonly voice?: boolean;
  /** The schedule that sent it (PendingItem.schedule, the clock mark); kept until it runs. */
  readonly schedule?: ScheduleRef;
  /** Send later: held in the queue until `at` (epoch ms); see application/turns/send-later.ts. */
  readonly later?: LaterRef;
}

/** A queued message's time (PendingItem.later): `at` epoch ms; `missed`: it came due while the daemon was down. */
export interface LaterRef {
  readonly at: number;
  readonly when: "at" | "limit_reset";
  readonly missed?: boolean;
}

/** A scheduled queued message wherever it waits (the send-later alarm's view). */
export interface LaterRow {
  readonly conversationId: string;
  readonly id: string;
  readonly later: LaterRef;
}

/** Which schedule sent a message (MessageOut.schedule). */
export interface ScheduleRef {
  readonly id: string;
  readonly name: string;
}

/** A queued row as `queue_changed` carries it: the start of its text, its full length, its voice and schedule marks, its files. */
export interface PendingPreviewRow {
  readonly id: string;
  readonly head: string;
  readonly length: number;
  readonly voice?: boolean;
  readonly schedule?: ScheduleRef;
  readonly later?: LaterRef;
  readonly attachments?: readonly AttachmentOut[];
}

export interface NewMessage {
  readonly id: string;
  readonly conversationId: string;
  readonly role: "user" | "assistant";
  readonly content: readonly ContentBlock[];
  readonly status: "complete" | "streaming" | "failed";
  readonly modelId: string | null;
  readonly clientId: string | null;
  readonly now: number;
  /** A user message steered into a running turn (MessageOut.steered). */
  readonly steered?: boolean;
  /** Files the owner's message carries, in order (linked, never copied). */
  readonly attachments?: readonly AttachmentOut[];
  /** A user message whose text is a recording's transcript (MessageOut.voice). */
  readonly voice?: boolean;
  /** A user message a schedule sent (MessageOut.schedule). */
  readonly schedule?: ScheduleRef;
}

/** Why a reply failed; the code is one of protocol's turn failure codes. */
export interface TurnFailure {
  readonly code: TurnFailureCode;
  readonly message: string;
}

export interface MessageFinal {
  readonly content: readonly ContentBlock[];
  readonly status: "complete" | "failed";
  readonly modelId: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly stopReason: string | null;
  readonly error: TurnFailure | null;
}

/**
 * One SQLite transaction around writes that span the chat stores (they share one database
 * handle, so a write through any of them inside `fn` commits or rolls back with the rest).
 */
export interface Transactor {
  transaction<T>(fn: () => T): T;
}

/** Conversations: their rows, list and search. Every method is synchronous (SQLite). */
export interface ConversationStore {
  insertConversation(c: NewConversation): void;
  getConversation(id: string): Conversation | null;
  listConversations(query: ConversationPageQuery): Conversation[];
  /** Up to `limit` conversations (archived too) whose id starts with `prefix`, by id. */
  conversationsWithIdPrefix(prefix: string, limit: number): Conversation[];
  /** Where `q` matched a conversation a search returned: called for the returned page only. */
  searchMatch(conversation: Conversation, q: string): SearchMatch;
  renameConversation(id: string, title: string, bySelf: boolean, now: number): void;
  setArchived(id: string, archivedAt: number | null): void;
  setAgentConfig(id: string, config: AgentConfig): void;
  setQueuePaused(id: string, paused: boolean): void;
  /** Bind (or unbind, null) the conversation to an IM chat: its turns are relayed there. */
  setChannelBinding(id: string, binding: ChannelBinding | null): void;
  /** A channel was removed: its conversations stay, unbound. Returns their ids. */
  unbindChannel(channelId: string): string[];
  touchConversation(id: string, now: number): void;
  deleteConversation(id: string): void;
}

/** A conversation's thread: the user and assistant rows. Every method is synchronous (SQLite). */
export interface MessageStore {
  insertMessage(m: NewMessage): MessageOut;
  updateMessageContent(id: string, content: readonly ContentBlock[]): void;
  /** A settled reply's content after one of its questions closed (a steer had split it off first); the text is unchanged. */
  updateClosedQuestion(id: string, content: readonly ContentBlock[]): void;
  finalizeMessage(id: string, final: MessageFinal): void;
  deleteMessage(id: string): void;
  getMessage(id: string): MessageOut | null;
  listMessages(conversationId: string, before: number | undefined, limit: number): { messages: MessageOut[]; hasMore: boolean };
  findMessageByClientId(conversationId: string, clientId: string): MessageOut | null;
  countUserMessages(conversationId: string): number;
  /** Models this agent ran on (or was set to) lately, newest first, read from its most recent conversations. */
  recentModels(agentKey: string, limit: number): string[];
  /** Restart recovery: every streaming row becomes failed with this error, keeping its flushed content. Returns their conversations. */
  failStreamingMessages(error: TurnFailure): string[];
}

/** Each conversation's durable FIFO queue (the `pending_messages` table). Synchronous (SQLite). */
export interface PendingStore {
  listPending(conversationId: string): PendingRow[];
  /** How many messages are queued (no texts read). */
  countPending(conversationId: string): number;
  /** The queue in order with each text cut to its first `chars` characters (code points) and its full length. */
  listPendingPreviews(conversationId: string, chars: number): PendingPreviewRow[];
  appendPending(conversationId: string, row: PendingRow, now: number): void;
  replacePending(conversationId: string, rows: readonly PendingRow[], now: number): void;
  deletePending(id: string): void;
  findPendingByClientId(conversationId: string, clientId: string): PendingRow | null;
  /** Conversations whose durable queue is non-empty (for restart recovery); `unscheduledOnly`: only those holding a message with no time. */
  conversationsWithPending(unscheduledOnly?: boolean): string[];
  /** Every queued message with a time, in every conversation, earliest first. */
  listLater(): LaterRow[];
  /** Set or clear one queued message's time. */
  setLater(id: string, later: LaterRef | null): void;
}

export interface Clock {
  now(): number;
}

export interface Logger {
  debug(msg: string, ctx?: Record<string, unknown>): void;
  info(msg: string, ctx?: Record<string, unknown>): void;
  warn(msg: string, ctx?: Record<string, unknown>): void;
  error(msg: string, ctx?: Record<string, unknown>): void;
}

export interface IdGenerator {
  (): string;
}

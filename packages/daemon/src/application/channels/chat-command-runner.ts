import { editingNote } from "@coffer/protocol";
import type { AgentRegistry } from "../agent-registry.js";
import type { ConversationService } from "../conversations.js";
import type { ConversationSettings } from "../conversation-settings.js";
import type { Clock, ConversationStore } from "../ports.js";
import type { TurnQueue } from "../turns/turn-queue.js";
import type { QuestionDesk } from "../turns/question-desk.js";
import type { TurnLifecycle } from "../turns/turn-lifecycle.js";
import type { TurnReads } from "../turns/turn-reads.js";
import { DomainError } from "../../domain/errors.js";
import { HELP_TEXT, type ParsedCommand } from "./chat-commands.js";
import type { ChannelRecord, ChannelStore, ChatKey } from "./ports.js";
import { duration } from "./progress-text.js";
import { LaterCommands } from "./later-commands.js";
import { ScheduleCommands, type PhoneSchedules } from "./schedule-commands.js";

export const LIST_SIZE = 10;

/** What the chat commands read and change: the conversations a chat works in, and their turns. */
export interface ChatCommandDeps {
  readonly channels: ChannelStore;
  readonly chats: Pick<ConversationStore, "getConversation">;
  readonly conversations: Pick<ConversationService, "get" | "list" | "create">;
  /** The model a chat's /model reads and sets, and the chat a conversation is bound to. */
  readonly conversationSettings: Pick<ConversationSettings, "agentConfig" | "patchAgentConfig" | "bindChannel">;
  readonly turnLifecycle: Pick<TurnLifecycle, "isRunning" | "interrupt">;
  readonly turnReads: Pick<TurnReads, "pending" | "subscribe">;
  readonly registry: AgentRegistry;
  /** Every open question, for /status (issue 27: questions find the owner). */
  readonly questionDesk: Pick<QuestionDesk, "openAll">;
  /** The owner's recurring prompts, for /schedules: the API's own service, so it is audited the same way. */
  readonly schedules: PhoneSchedules;
  /** /later sends through the queue the page uses (with a time), and cancels through its save. */
  readonly laterQueue: Pick<TurnQueue, "send" | "set">;
  /** The owner's zone (COFFER_TIME_ZONE): /later's "07:00" is read in it, and its answers too. */
  readonly timeZone: string;
  readonly clock: Clock;
  /** How long the conversation's running turn has worked, when the channel relays it. */
  elapsedMs(conversationId: string): number | null;
  /**
   * A conversation was just bound to this chat: if a turn is running there, the channel relays
   * it now (the engine's turn-started hook only covers turns that begin after the binding).
   */
  relayIfRunning(conversationId: string, chatId: string, threadId: string | null): void;
}

/**
 * The chat's commands (/new, /stop, /status, /model, /list, /open, /schedules, /later) and the conversation a chat
 * talks to: which one is active, starting one on the first message.
 */
export class ChatCommandRunner {
  /** What /list showed each chat, so /open n means what the owner saw. In memory: a convenience. */
  private readonly listed = new Map<string, string[]>();

  private readonly scheduleCommands: ScheduleCommands;
  private readonly laterCommands: LaterCommands;

  constructor(private readonly deps: ChatCommandDeps) {
    this.scheduleCommands = new ScheduleCommands(deps.schedules, (id) => this.findConversation(id)?.title);
    this.laterCommands = new LaterCommands({ queue: deps.laterQueue, reads: deps.turnReads, zone: deps.timeZone, clock: deps.clock });
  }

  /** The owner moved away from this chat: what /list showed there no longer applies. */
  forgetChat(chatId: string): void {
    for (const key of [...this.listed.keys()]) if (key.startsWith(`${chatId}\u0000`)) this.listed.delete(key);
    this.scheduleCommands.forgetChat(chatId);
    this.laterCommands.forgetChat(chatId);
  }

  /** Runs a command; the reply to send, or null when the relay answers for it (a /stop). */
  async run(channel: ChannelRecord, chat: ChatKey, { name, arg }: ParsedCommand): Promise<string | null> {
    const { turnLifecycle, conversations, conversationSettings, registry } = this.deps;
    try {
      switch (name) {
        case "start":
        case "help":
          return HELP_TEXT;
        case "new": {
          const agentKey = arg || channel.defaultAgent;
          const id = await this.createConversation(channel, chat, agentKey);
          const agent = registry.get(conversations.get(id).agent_key);
          return `🆕 New conversation with ${agent.displayName}. The previous one stays in your history.`;
        }
        case "stop": {
          const id = this.deps.channels.activeConversation(chat);
          if (!id || !turnLifecycle.isRunning(id)) return "Nothing is running.";
          // The relay answers for the turn itself ("⏹ Stopped …"): one message, not two.
          await turnLifecycle.interrupt(id);
          return null;
        }
        case "status":
          return await this.status(channel, chat);
        case "model": {
          const id = await this.activeConversation(channel, chat);
          if (!arg) {
            const model = conversationSettings.agentConfig(id).model;
            return `Model: ${model ?? "the agent's default"}. Change it with /model <name>, or /model default.`;
          }
          const model = arg.toLowerCase() === "default" ? null : arg;
          conversationSettings.patchAgentConfig(id, { model });
          return model ? `Model set to ${model} from the next reply.` : "Model back to the agent's default from the next reply.";
        }
        case "list":
          return this.list(chat);
        case "open":
          return this.open(channel, chat, arg);
        case "schedules":
          return await this.scheduleCommands.run(listKey(chat), arg);
        case "later":
          return await this.laterCommands.run(listKey(chat), await this.activeConversation(channel, chat), arg);
      }
    } catch (err) {
      // A refused command (unknown agent, bad model) is the owner's to fix: say why, in one line.
      if (err instanceof DomainError) return `⚠️ ${err.message}`;
      throw err;
    }
  }

  private async status(channel: ChannelRecord, chat: ChatKey): Promise<string> {
    const here = this.conversationStatus(channel, chat);
    const open = this.openQuestions(channel, chat);
    return open ? `${here}\n\n${open}` : here;
  }

  /**
   * Every question still waiting for the owner, from any conversation, each with how to answer
   * it: a conversation bound to this chat answers with a reply here, any other on the page.
   */
  private openQuestions(channel: ChannelRecord, chat: ChatKey): string | null {
    const open = this.deps.questionDesk.openAll();
    if (!open.length) return null;
    const lines = open.map((q, i) => {
      const binding = this.deps.chats.getConversation(q.conversation_id)?.channel;
      const here = binding?.channelId === channel.id && binding.chatId === chat.chatId && (binding.threadId ?? "") === chat.threadId;
      const text = preview(q.questions[0]?.text ?? "", 80);
      return `${i + 1}. ${q.title?.trim() || "Untitled conversation"}: “${text}” — ${here ? "reply here to answer" : "answer it on the page"}`;
    });
    return [`❓ Open questions (${open.length}):`, ...lines].join("\n");
  }

  private conversationStatus(channel: ChannelRecord, chat: ChatKey): string {
    const id = this.deps.channels.activeConversation(chat);
    const conv = id ? this.findConversation(id) : null;
    if (!conv) return `No conversation yet: your next message starts one with ${this.agentName(channel.defaultAgent)}.`;
    const model = this.deps.conversationSettings.agentConfig(conv.id).model;
    const running = this.deps.turnLifecycle.isRunning(conv.id);
    const elapsed = running ? this.deps.elapsedMs(conv.id) : null;
    const queue = this.deps.turnReads.pending(conv.id);
    return [
      `📋 ${conv.title}`,
      `Agent: ${this.agentName(conv.agent_key)} · model: ${model ?? "default"}`,
      `Turn: ${running ? `running${elapsed !== null ? ` (${duration(elapsed)})` : ""}` : "idle"}`,
      `Queue: ${queue.pending.length} waiting${queue.paused ? " (paused: send a message to resume)" : ""}`,
      // A message being edited holds the queue in front of it (issue 22 B): the phone sees which.
      ...queue.pending.flatMap((p, i) => (p.editing ? [`  ${i + 1}. “${preview(p.text)}” is ${editingNote(p.editing)}`] : [])),
      // Messages sent later, each with its time (/later lists and cancels them).
      ...this.laterCommands.statusLines(conv.id),
    ].join("\n");
  }

  private list(chat: ChatKey): string {
    const page = this.deps.conversations.list({ limit: LIST_SIZE });
    if (!page.conversations.length) return "No conversations yet.";
    const active = this.deps.channels.activeConversation(chat);
    this.listed.set(listKey(chat), page.conversations.map((c) => c.id));
    const lines = page.conversations.map((c, i) => {
      const marks = [c.id === active ? "▶ here" : "", c.running ? "running" : "", c.channel_binding ? "" : "desktop"].filter(Boolean);
      return `${i + 1}. ${c.title} · ${this.agentName(c.agent_key)}${marks.length ? ` (${marks.join(", ")})` : ""}`;
    });
    return `${lines.join("\n")}\n\nContinue one here with /open <n>.`;
  }

  private open(channel: ChannelRecord, chat: ChatKey, arg: string): string {
    const picked = this.pick(chat, arg);
    if (typeof picked === "string") return picked;
    const { id, conv } = picked;
    this.bindHere(channel, chat, id);
    return `Switched to “${conv.title}” (${this.agentName(conv.agent_key)}). Your messages go there now.`;
  }

  /** The conversation `/open <n>` names (by what /list showed this chat), or the line saying why none. */
  pick(chat: ChatKey, arg: string): { id: string; conv: NonNullable<ReturnType<ChatCommandRunner["findConversation"]>> } | string {
    const n = Number.parseInt(arg, 10);
    const ids = this.listed.get(listKey(chat)) ?? this.deps.conversations.list({ limit: LIST_SIZE }).conversations.map((c) => c.id);
    const id = Number.isInteger(n) && n >= 1 ? ids[n - 1] : undefined;
    if (!id) return `Which one? Send /list, then /open <n> with a number from 1 to ${ids.length}.`;
    const conv = this.findConversation(id);
    if (!conv) return "That conversation is gone. Send /list for the current ones.";
    return { id, conv };
  }

  /** The conversation now lives in this chat (and topic): its replies, running turn and next messages are here. */
  bindHere(channel: ChannelRecord, chat: ChatKey, id: string): void {
    const threadId = chat.threadId || null;
    this.deps.conversationSettings.bindChannel(id, { channel: channel.kind, chatId: chat.chatId, channelId: channel.id, threadId });
    this.deps.relayIfRunning(id, chat.chatId, threadId);
    this.deps.channels.setActiveConversation(chat, id);
  }

  /** The chat's active conversation; the first message (or a deleted one) starts a new one. */
  async activeConversation(channel: ChannelRecord, chat: ChatKey): Promise<string> {
    const id = this.deps.channels.activeConversation(chat);
    if (id && this.deps.chats.getConversation(id)) return id;
    return this.createConversation(channel, chat, channel.defaultAgent);
  }

  /** A fresh conversation bound to this chat (and topic), now the one it talks to. */
  async createConversation(channel: ChannelRecord, chat: ChatKey, agentKey: string): Promise<string> {
    const agentConfig: Record<string, unknown> = {};
    if (channel.defaultCwd) agentConfig.cwd = channel.defaultCwd;
    // The channel's model belongs to its default agent; another agent starts on its own default.
    if (channel.defaultModel && agentKey === channel.defaultAgent) agentConfig.model = channel.defaultModel;
    const conv = await this.deps.conversations.create({
      agent_key: agentKey,
      agent_config: agentConfig,
      channel_binding: { channel: channel.kind, chat_id: chat.chatId, channel_id: channel.id, thread_id: chat.threadId || null },
    });
    this.deps.channels.setActiveConversation(chat, conv.id);
    return conv.id;
  }

  /** The conversation, or null when it is gone. */
  findConversation(id: string) {
    try {
      return this.deps.conversations.get(id);
    } catch {
      return null;
    }
  }

  agentName(key: string): string {
    return this.deps.registry.find(key)?.displayName ?? key;
  }
}

function listKey(chat: ChatKey): string {
  return `${chat.chatId}\u0000${chat.threadId}`;
}

/** A queued message's first words on one line, for a phone's status. */
function preview(text: string, max = 40): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

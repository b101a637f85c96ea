import { deriveTitle, PLACEHOLDER_TITLE } from "../../domain/conversation.js";
import type { ChatCommandRunner } from "./chat-command-runner.js";
import type { ParsedCommand } from "./chat-commands.js";
import type { ChannelGroupStore } from "./group-ports.js";
import { PlatformFailure, type BotConnection, type ChannelRecord, type ChannelStore, type ChatKey, type ThreadWords } from "./ports.js";
import { threadCommandLines, TOPIC_WORDS } from "./thread-words.js";

/** Telegram takes topic names of 1–128 characters (an adapter with a shorter limit cuts further). */
const TOPIC_NAME_MAX = 128;

export interface TopicCommandDeps {
  readonly channels: ChannelStore;
  readonly groups: ChannelGroupStore;
  readonly commands: ChatCommandRunner;
  /** The live connection (null before it is up). */
  connection(): BotConnection | null;
  /** A line into a chat or one of its topics, delivered like any message. */
  say(chatId: string, threadId: string | null, text: string): void;
  /** The platform's words for its threads (Telegram's topics when absent). */
  readonly words?: ThreadWords;
}

/**
 * /new and /open in a forum group's main chat (General): each opens the conversation in a topic
 * of its own, so several conversations run side by side from the phone. Inside a topic the
 * commands work as in a DM (chat-command-runner.ts), keyed by that topic.
 */
export class TopicCommands {
  private readonly lines: ReturnType<typeof threadCommandLines>;

  constructor(private readonly deps: TopicCommandDeps) {
    this.lines = threadCommandLines(deps.words ?? TOPIC_WORDS);
  }

  /** Whether this command, in this chat, opens a topic. */
  handles(chat: ChatKey, command: ParsedCommand, inForum: boolean): boolean {
    return inForum && chat.threadId === "" && (command.name === "new" || command.name === "open");
  }

  /** Runs /new or /open in General; the reply for General. */
  async run(channel: ChannelRecord, general: ChatKey, command: ParsedCommand): Promise<string> {
    const { commands } = this.deps;
    const arg = command.arg;
    if (command.name === "new") {
      const opened = await this.openTopic(general.chatId, PLACEHOLDER_TITLE);
      if ("line" in opened) return opened.line;
      const topic = opened.threadId;
      const chat: ChatKey = { ...general, threadId: topic };
      this.deps.groups.setTopicName(chat, PLACEHOLDER_TITLE);
      const id = await commands.createConversation(channel, chat, arg || channel.defaultAgent);
      const agent = commands.agentName(commands.findConversation(id)?.agent_key ?? channel.defaultAgent);
      this.deps.say(general.chatId, topic, this.lines.newHere(agent));
      return this.lines.opened(agent);
    }
    const picked = commands.pick(general, arg);
    if (typeof picked === "string") return picked;
    const { id, conv } = picked;
    const binding = conv.channel_binding;
    if (binding?.channel_id === channel.id && binding.chat_id === general.chatId && binding.thread_id) {
      return this.lines.hasOne(conv.title);
    }
    const name = topicName(conv.title);
    const opened = await this.openTopic(general.chatId, name);
    if ("line" in opened) return opened.line;
    const topic = opened.threadId;
    const chat: ChatKey = { ...general, threadId: topic };
    this.deps.groups.setTopicName(chat, name);
    commands.bindHere(channel, chat, id);
    this.deps.say(general.chatId, topic, this.lines.continuing(conv.title, commands.agentName(conv.agent_key)));
    return this.lines.openedOld(conv.title);
  }

  /**
   * After the owner's message in a topic this channel opened as "New conversation": the topic
   * takes the conversation's title (derived from that first message, as the conversation's is).
   * Best effort: a name is a convenience.
   */
  renameAfterFirstMessage(chat: ChatKey, text: string): void {
    if (!chat.threadId || this.deps.groups.topicName(chat) !== PLACEHOLDER_TITLE) return;
    const title = deriveTitle(text);
    const connection = this.deps.connection();
    if (!title || !connection?.renameTopic) return;
    const name = topicName(title);
    this.deps.groups.setTopicName(chat, name);
    connection.renameTopic(chat.chatId, chat.threadId, name).catch(() => undefined);
  }

  /** A new topic's thread id, or the line saying why none could be opened. */
  private async openTopic(chatId: string, name: string): Promise<{ threadId: string } | { line: string }> {
    const connection = this.deps.connection();
    if (!connection?.createTopic) return { line: this.lines.unsupported };
    try {
      return { threadId: await connection.createTopic(chatId, name) };
    } catch (err) {
      // Most often the bot lacks the right to open threads (Telegram: an admin who manages topics): the owner's to fix.
      if (err instanceof PlatformFailure && err.kind === "rejected") {
        return { line: this.lines.refused(err.message) };
      }
      throw err;
    }
  }
}

function topicName(title: string): string {
  const name = title.replace(/\s+/g, " ").trim() || PLACEHOLDER_TITLE;
  return name.length > TOPIC_NAME_MAX ? `${name.slice(0, TOPIC_NAME_MAX - 1)}…` : name;
}

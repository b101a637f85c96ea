import { editingNote } from "@coffer/protocol";
import type { AgentRegistry } from "../agent-registry.js";
import type { ConversationService } from "../conversations.js";
import type { Clock, ConversationStore, Logger, PendingStore } from "../ports.js";
import type { QuestionDesk } from "../turns/question-desk.js";
import type { TurnLifecycle } from "../turns/turn-lifecycle.js";
import type { TurnQueue } from "../turns/turn-queue.js";
import type { TurnReads } from "../turns/turn-reads.js";
import { DomainError } from "../../domain/errors.js";
import { offeredCode } from "../../domain/pairing-code.js";
import { HELP_TEXT, parseCommand, type ParsedCommand } from "./chat-commands.js";
import type { Courier } from "./courier.js";
import { moveOwnerChat, movedText } from "./owner-move.js";
import type { PairingCodes } from "./pairing-codes.js";
import type { ChannelRecord, ChannelStore, ChatKey, InboundUpdate } from "./ports.js";
import { duration } from "./progress-text.js";
import { parseAnswerButton, parseQuestionReply, questionText } from "./question-text.js";
import { PHONE_CLIENT_PREFIX, type OpenChatQuestion } from "./turn-relay.js";

/** The most messages the phone may have waiting in one conversation; the 11th is refused. */
export const PHONE_QUEUE_MAX = 10;
const LIST_SIZE = 10;

export interface InboundDeps {
  readonly channels: ChannelStore;
  readonly chats: Pick<ConversationStore, "getConversation">;
  /** How many messages wait in a conversation's queue (the phone's own cap, its acknowledgements). */
  readonly pending: Pick<PendingStore, "countPending">;
  readonly conversations: ConversationService;
  /** The turn rooms a phone talks to, as the page does: send, stop, answer, and the queue as it stands. */
  readonly turnQueue: Pick<TurnQueue, "send" | "resume">;
  readonly turnLifecycle: Pick<TurnLifecycle, "isRunning" | "interrupt">;
  readonly questionDesk: Pick<QuestionDesk, "list" | "answer">;
  readonly turnReads: Pick<TurnReads, "pending" | "subscribe">;
  readonly registry: AgentRegistry;
  readonly pairing: PairingCodes;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly audit: (action: "channel_paired", details: Record<string, unknown>) => void;
  /** How long the conversation's running turn has worked, when the channel relays it. */
  elapsedMs(conversationId: string): number | null;
  /** The agent questions open in this chat, one per asking conversation. */
  openQuestions(chatId: string): readonly ChatQuestion[];
  /** The owner paired from `to` (previously `from`): the old chat's relays, questions and menu must go. */
  ownerChanged(from: string | null, to: string): void;
  /** Which conversation asked a question this channel showed (open or recently closed), for a button tap. */
  questionConversation(questionId: string): string | null;
}

/** An agent question open in a chat, with the conversation it belongs to. */
export interface ChatQuestion extends OpenChatQuestion {
  readonly conversationId: string;
}

/**
 * One channel's inbound side: who may talk (the paired owner only; strangers get nothing
 * and leave nothing but a count), pairing, the commands, and messages into the same durable
 * queue the page and CLI use.
 */
export class InboundHandler {
  /** What /list showed each chat, so /open n means what the owner saw. In memory: a convenience. */
  private readonly listed = new Map<string, string[]>();
  /** Acknowledgements held while one poll's batch is handled: one reply per chat, not one per message. */
  private batch: Map<string, BatchAck> | null = null;
  /** Questions shown again during this batch. */
  private readonly reshown = new Set<string>();

  constructor(
    private readonly channelId: string,
    private readonly courier: Courier,
    private readonly deps: InboundDeps,
  ) {}

  /**
   * Hold "queued"/"not queued" acknowledgements until `endBatch`: a burst of 100 phone
   * messages gets one summary reply per chat instead of 100 (which Telegram would throttle).
   */
  beginBatch(): void {
    this.batch = new Map();
    this.reshown.clear();
  }

  endBatch(): void {
    const held = this.batch;
    this.batch = null;
    for (const ack of held?.values() ?? []) this.courier.enqueue(ack.chatId, ack.threadId, [{ text: ackText(ack) }]);
  }

  async handle(update: InboundUpdate): Promise<void> {
    const channel = this.deps.channels.get(this.channelId);
    if (!channel) return;
    const { sender, text } = update;
    const now = this.deps.clock.now();
    const isOwner =
      channel.owner !== null && sender !== null && sender.id === channel.owner.userId && update.chatId === channel.owner.chatId;
    // While a code is out, a code-shaped text in a private chat is a pairing attempt (a late one
    // is noted for the page). Only a stranger's wrong attempt is a guess, counted against that
    // sender alone: the owner's text that merely looks like one is a message.
    const code = sender && text && update.chatType === "private" && this.deps.pairing.pending(channel.id) ? offeredCode(text) : null;
    if (code && sender && (!isOwner || this.deps.pairing.matches(channel.id, code, now))) {
      if (this.deps.pairing.claim(channel.id, code, sender.id, now)) return this.pair(channel, update, sender);
    }
    if (!isOwner) return this.ignore();
    this.deps.channels.bump(channel.id, "messagesIn");
    if (update.callback) return this.tap(update, update.callback);
    const chat: ChatKey = { channelId: channel.id, chatId: update.chatId, threadId: update.threadId ?? "" };
    if (!text) return this.reply(update, "Only text messages reach the agent for now.");
    const command = parseCommand(text);
    if (command) return this.command(channel, chat, update, command);
    return this.message(channel, chat, update, text);
  }

  private ignore(): void {
    // No reply, no turn, no row: only a count (the content is never stored or logged).
    this.deps.channels.bump(this.channelId, "strangersIgnored");
  }

  private pair(channel: ChannelRecord, update: InboundUpdate, sender: { id: string; name: string }): void {
    const now = this.deps.clock.now();
    const from = channel.owner?.chatId ?? null;
    const to = update.chatId;
    this.deps.channels.setOwner(channel.id, { chatId: to, userId: sender.id, name: sender.name, pairedAt: now });
    // First the runner lets go of the old chat, so a rebound running turn gets a fresh relay here.
    this.deps.ownerChanged(from, to);
    const move = from !== null && from !== to ? moveOwnerChat(this.deps, channel.id, from, to) : null;
    if (move) for (const key of [...this.listed.keys()]) if (key.startsWith(`${from}\u0000`)) this.listed.delete(key);
    this.deps.audit("channel_paired", {
      channel_id: channel.id,
      channel: channel.name,
      owner: sender.name,
      replaced: channel.owner !== null,
      ...(move ? { moved_conversations: move.conversations.map((c) => c.id), dropped_outbox: move.droppedOutbox } : {}),
    });
    const moved = move ? `${movedText(move)}\n\n` : "";
    this.reply(update, `Paired. Hello ${sender.name}: this chat now drives your Coffer.\n\n${moved}${HELP_TEXT}`);
    for (const c of move?.conversations ?? []) this.deps.conversations.bindChannel(c.id, { channel: channel.kind, chatId: to, channelId: channel.id });
  }

  private async message(channel: ChannelRecord, chat: ChatKey, update: InboundUpdate, text: string): Promise<void> {
    // A question captures the chat's next message only when it was asked in the chat's current
    // conversation; after /new or /open the message goes where the owner now talks, and a
    // question left open elsewhere is shown again instead (docs/decisions.md, "Hardening II: the phone channel").
    const questions = this.deps.openQuestions(update.chatId);
    const current = this.deps.channels.activeConversation(chat);
    const question = questions.find((q) => q.conversationId === current);
    if (question) return this.answer(update, question, text);
    for (const q of questions) this.reshow(update, q);
    const conversationId = await this.activeConversation(channel, chat);
    if (this.deps.pending.countPending(conversationId) >= PHONE_QUEUE_MAX) {
      // Still a message "from either screen": a held queue resumes, or the phone could never restart it.
      // A plan-limit hold is not the owner's pause: only its reset or an explicit resume lifts it.
      const queue = this.deps.turnReads.pending(conversationId);
      const held = queue.paused && !queue.hold;
      if (held) await this.deps.turnQueue.resume(conversationId);
      return this.acknowledge(update, (ack) => {
        ack.refused += 1;
        ack.resumed ||= held;
      });
    }
    // The update id makes the send idempotent: a redelivered update (restart) is recognised.
    const sent = await this.deps.turnQueue.send(conversationId, text, `${PHONE_CLIENT_PREFIX}${channel.id}:${update.updateId}`);
    if (sent.queued) {
      const waiting = this.deps.pending.countPending(conversationId);
      this.acknowledge(update, (ack) => {
        ack.queued += 1;
        ack.waiting = waiting;
      });
    }
  }

  private answer(update: InboundUpdate, question: ChatQuestion, text: string): void {
    const answers = parseQuestionReply(question.questions, text);
    if (!answers) return this.reply(update, `That does not answer the question. ${questionText(question.questions).split("\n\n").at(-1)}`);
    try {
      this.deps.questionDesk.answer(question.conversationId, question.questionId, answers, "telegram");
    } catch (err) {
      // Answered on another screen first (409 names the winner), or it closed meanwhile.
      if (err instanceof DomainError) return this.reply(update, `⚠️ ${err.message}`);
      throw err;
    }
  }

  /**
   * A tap on a question's option button answers it at once. A tap that comes too late (another
   * screen answered, or the turn ended) is told so over the chat; the relay has already said
   * which answer won.
   */
  private tap(update: InboundUpdate, callback: { id: string; data: string }): void {
    const button = parseAnswerButton(callback.data);
    const conversationId = button ? this.deps.questionConversation(button.questionId) : null;
    const asked = conversationId ? this.deps.questionDesk.list(conversationId).questions.find((q) => q.question_id === button!.questionId) : undefined;
    const option = asked?.questions[0]?.options[button!.option];
    if (!conversationId || !asked || !option) return this.acknowledgeTap(callback.id, "That question is closed: its turn has ended.");
    try {
      this.deps.questionDesk.answer(conversationId, asked.question_id, [{ selected: [option.label] }], "telegram");
      this.acknowledgeTap(callback.id, `✅ ${option.label}`);
    } catch (err) {
      // Lost the race: the notice says which answer won ("Answered from the page: Blue").
      if (err instanceof DomainError) return this.acknowledgeTap(callback.id, err.message);
      throw err;
    }
  }

  private acknowledgeTap(callbackId: string, text: string): void {
    this.courier.tryEphemeral((conn) => conn.answerCallback(callbackId, text), true);
  }

  /** Once per question per poll batch: a burst of messages elsewhere does not repeat it. */
  private reshow(update: InboundUpdate, q: ChatQuestion): void {
    if (this.reshown.has(q.questionId)) return;
    if (this.batch) this.reshown.add(q.questionId);
    const title = this.findConversation(q.conversationId)?.title ?? "another conversation";
    this.reply(update, `❓ Still waiting for your answer in “${title}” (this message went to the current conversation; /list, then /open it to answer):\n\n${questionText(q.questions)}`);
  }

  private acknowledge(update: InboundUpdate, change: (ack: BatchAck) => void): void {
    const key = `${update.chatId}\u0000${update.threadId ?? ""}`;
    const ack = this.batch?.get(key) ?? { chatId: update.chatId, threadId: update.threadId, queued: 0, waiting: 0, refused: 0, resumed: false };
    change(ack);
    if (this.batch) this.batch.set(key, ack);
    else this.reply(update, ackText(ack));
  }

  private async command(channel: ChannelRecord, chat: ChatKey, update: InboundUpdate, { name, arg }: ParsedCommand): Promise<void> {
    const { turnLifecycle, conversations, registry } = this.deps;
    try {
      switch (name) {
        case "start":
        case "help":
          return this.reply(update, HELP_TEXT);
        case "new": {
          const agentKey = arg || channel.defaultAgent;
          const id = await this.createConversation(channel, chat, agentKey);
          const agent = registry.get(conversations.get(id).agent_key);
          return this.reply(update, `🆕 New conversation with ${agent.displayName}. The previous one stays in your history.`);
        }
        case "stop": {
          const id = this.deps.channels.activeConversation(chat);
          if (!id || !turnLifecycle.isRunning(id)) return this.reply(update, "Nothing is running.");
          // The relay answers for the turn itself ("⏹ Stopped …"): one message, not two.
          await turnLifecycle.interrupt(id);
          return;
        }
        case "status":
          return this.reply(update, await this.status(channel, chat));
        case "model": {
          const id = await this.activeConversation(channel, chat);
          if (!arg) {
            const model = conversations.agentConfig(id).model;
            return this.reply(update, `Model: ${model ?? "the agent's default"}. Change it with /model <name>, or /model default.`);
          }
          const model = arg.toLowerCase() === "default" ? null : arg;
          conversations.patchAgentConfig(id, { model });
          return this.reply(update, model ? `Model set to ${model} from the next reply.` : "Model back to the agent's default from the next reply.");
        }
        case "list":
          return this.reply(update, this.list(chat));
        case "open":
          return this.reply(update, this.open(channel, chat, arg));
      }
    } catch (err) {
      // A refused command (unknown agent, bad model) is the owner's to fix: say why, in one line.
      if (err instanceof DomainError) return this.reply(update, `⚠️ ${err.message}`);
      throw err;
    }
  }

  private async status(channel: ChannelRecord, chat: ChatKey): Promise<string> {
    const id = this.deps.channels.activeConversation(chat);
    const conv = id ? this.findConversation(id) : null;
    if (!conv) return `No conversation yet: your next message starts one with ${this.agentName(channel.defaultAgent)}.`;
    const model = this.deps.conversations.agentConfig(conv.id).model;
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
    const n = Number.parseInt(arg, 10);
    const ids = this.listed.get(listKey(chat)) ?? this.deps.conversations.list({ limit: LIST_SIZE }).conversations.map((c) => c.id);
    const id = Number.isInteger(n) && n >= 1 ? ids[n - 1] : undefined;
    if (!id) return `Which one? Send /list, then /open <n> with a number from 1 to ${ids.length}.`;
    const conv = this.findConversation(id);
    if (!conv) return "That conversation is gone. Send /list for the current ones.";
    this.deps.conversations.bindChannel(id, { channel: channel.kind, chatId: chat.chatId, channelId: channel.id });
    this.deps.channels.setActiveConversation(chat, id);
    return `Switched to “${conv.title}” (${this.agentName(conv.agent_key)}). Your messages go there now.`;
  }

  /** The chat's active conversation; the first message (or a deleted one) starts a new one. */
  private async activeConversation(channel: ChannelRecord, chat: ChatKey): Promise<string> {
    const id = this.deps.channels.activeConversation(chat);
    if (id && this.deps.chats.getConversation(id)) return id;
    return this.createConversation(channel, chat, channel.defaultAgent);
  }

  private async createConversation(channel: ChannelRecord, chat: ChatKey, agentKey: string): Promise<string> {
    const agentConfig: Record<string, unknown> = {};
    if (channel.defaultCwd) agentConfig.cwd = channel.defaultCwd;
    // The channel's model belongs to its default agent; another agent starts on its own default.
    if (channel.defaultModel && agentKey === channel.defaultAgent) agentConfig.model = channel.defaultModel;
    const conv = await this.deps.conversations.create({
      agent_key: agentKey,
      agent_config: agentConfig,
      channel_binding: { channel: channel.kind, chat_id: chat.chatId, channel_id: channel.id },
    });
    this.deps.channels.setActiveConversation(chat, conv.id);
    return conv.id;
  }

  private findConversation(id: string) {
    try {
      return this.deps.conversations.get(id);
    } catch {
      return null;
    }
  }

  private agentName(key: string): string {
    return this.deps.registry.find(key)?.displayName ?? key;
  }

  private reply(update: InboundUpdate, text: string): void {
    this.courier.enqueue(update.chatId, update.threadId, [{ text }]);
  }
}

function listKey(chat: ChatKey): string {
  return `${chat.chatId}\u0000${chat.threadId}`;
}

interface BatchAck {
  readonly chatId: string;
  readonly threadId: string | null;
  queued: number;
  /** The queue's length after the last message queued. */
  waiting: number;
  refused: number;
  resumed: boolean;
}

/** "⏳ Queued (3 waiting)", or the summary of a burst: how many queued, how many refused and why. */
export function ackText(ack: Omit<BatchAck, "chatId" | "threadId">): string {
  const lines: string[] = [];
  if (ack.queued) lines.push(ack.queued === 1 ? `⏳ Queued (${ack.waiting} waiting)` : `⏳ Queued ${ack.queued} messages (${ack.waiting} waiting)`);
  if (ack.refused) {
    const what = ack.refused === 1 ? "this one was" : `${ack.refused} messages were`;
    lines.push(`${PHONE_QUEUE_MAX} messages are already waiting, so ${what} not queued.${ack.resumed ? " The queue runs again now." : " Wait for a reply, or /stop."}`);
  }
  return lines.join("\n");
}

/** A queued message's first words on one line, for a phone's status. */
function preview(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

import type { Clock, Logger, PendingStore } from "../ports.js";
import type { QuestionDesk } from "../turns/question-desk.js";
import type { TurnQueue } from "../turns/turn-queue.js";
import { DomainError } from "../../domain/errors.js";
import { offeredCode } from "../../domain/pairing-code.js";
import { HELP_TEXT, parseCommand } from "./chat-commands.js";
import { ChatCommandRunner, type ChatCommandDeps } from "./chat-command-runner.js";
import type { Courier } from "./courier.js";
import { moveOwnerChat, movedText } from "./owner-move.js";
import type { PairingCodes } from "./pairing-codes.js";
import { AlbumGatherer } from "./album-gatherer.js";
import { storePhoneFiles, type PhoneFileDeps } from "./phone-files.js";
import type { AlbumPartStore, ChannelRecord, ChatKey, InboundFile, InboundUpdate } from "./ports.js";
import { answerText, surfaceName, type AskedQuestionOut, type QuestionAnswer } from "@coffer/protocol";
import { parseButton, pickOf, SKIP_OPTION } from "./chat-buttons.js";
import { answersFromPicks } from "./question-picks.js";
import type { QuestionBoard } from "./question-board.js";
import { parseQuestionReply, questionText } from "./question-text.js";
import { phoneClientPrefix, type OpenChatQuestion } from "./turn-relay.js";
import { echoText, VoiceNotes, type VoiceNoteDeps } from "./voice-notes.js";
import { GroupGate } from "./group-gate.js";
import type { ChannelGroupStore } from "./group-ports.js";
import { TopicCommands } from "./topic-commands.js";
import type { BotConnection, ThreadWords } from "./ports.js";

/** The most messages the phone may have waiting in one conversation; the 11th is refused. */
export const PHONE_QUEUE_MAX = 10;

export interface InboundDeps extends ChatCommandDeps, Pick<VoiceNoteDeps, "transcription" | "fetchFile" | "platformName"> {
  /** How many messages wait in a conversation's queue (the phone's own cap, its acknowledgements). */
  readonly pending: Pick<PendingStore, "countPending">;
  /** The surface this channel answers questions as: its platform's kind. */
  readonly surface: string;
  /** The turn rooms a phone talks to besides the commands' own, as the page does: send, answer. */
  readonly turnQueue: Pick<TurnQueue, "send" | "resume" | "alreadySent">;
  readonly questionDesk: Pick<QuestionDesk, "list" | "answer" | "openAll">;
  readonly pairing: PairingCodes;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly audit: (action: "channel_paired", details: Record<string, unknown>) => void;
  /** The agent questions open in this chat (or topic), one per asking conversation. */
  openQuestions(chatId: string, threadId: string | null): readonly ChatQuestion[];
  /** The owner paired from `to` (previously `from`): the old chat's relays, questions and menu must go. */
  ownerChanged(from: string | null, to: string): void;
  /** Which conversation asked a question this channel showed (open or recently closed), for a button tap. */
  questionConversation(questionId: string): string | null;
  /** The channel's shown questions: a multi-select's picks live there. */
  readonly board: Pick<QuestionBoard, "open" | "toggle">;
  /** The conversation whose running turn this channel relays under `turnId` (a Stop tap), or null once it ended. */
  runningTurn(turnId: string): string | null;
  /** Aborts when the channel stops: a voice note being fetched or transcribed is called off. */
  readonly stopSignal?: AbortSignal;
  /** Where the owner's photos and documents are fetched and stored (the runner binds its connection). */
  readonly files: PhoneFileDeps;
  /** How long an album waits after its last part (ALBUM_QUIET_MS; timed by `files.alarms`). */
  readonly albumQuietMs: number;
  /** Album parts not yet sent, kept across a restart. */
  readonly albumParts: AlbumPartStore;
  /** Runs work begun outside a poll (an album's timer) the way a poll's update runs: as the channel. */
  inScope(fn: () => Promise<void>): Promise<void>;
  /** Group chats the bot sits in and the topics it opened (forum topics as conversations). */
  readonly groups: ChannelGroupStore;
  /** The live connection, for a group's member count and its topics (null before it is up). */
  connection(): BotConnection | null;
  /** The platform's words for its groups and threads (Telegram's topics when absent). */
  readonly threadWords?: ThreadWords;
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
  /** Acknowledgements held while one poll's batch is handled: one reply per chat, not one per message. */
  private batch: Map<string, BatchAck> | null = null;
  /** Questions shown again during this batch. */
  private readonly reshown = new Set<string>();

  private readonly commands: ChatCommandRunner;
  private readonly voiceNotes: VoiceNotes;
  private readonly albums: AlbumGatherer;
  private readonly groupGate: GroupGate;
  private readonly topics: TopicCommands;
  /** Albums being sent, in order: a later message of the chat waits for them (it must not overtake). */
  private albumWork: Promise<void> = Promise.resolve();

  constructor(
    private readonly channelId: string,
    private readonly courier: Courier,
    private readonly deps: InboundDeps,
  ) {
    this.commands = new ChatCommandRunner(deps);
    this.voiceNotes = new VoiceNotes(deps);
    const say = (chatId: string, threadId: string | null, text: string) => this.courier.enqueue(chatId, threadId, [{ text }]);
    const words = deps.threadWords ? { words: deps.threadWords } : {};
    this.groupGate = new GroupGate({ groups: deps.groups, clock: deps.clock, connection: deps.connection, say: (chatId, text) => say(chatId, null, text), ...words });
    this.topics = new TopicCommands({ channels: deps.channels, groups: deps.groups, commands: this.commands, connection: deps.connection, say, ...words });
    this.albums = new AlbumGatherer(deps.files.alarms, deps.albumQuietMs, (parts) => {
      this.albumWork = this.albumWork.then(() => this.deps.inScope(() => this.album(parts))).catch((err: unknown) => {
        // A stop cut it short: kept for the next start, nothing to report.
        if (this.deps.files.stopping.aborted) return;
        // Logged without content, like a poison update: the next album must still go.
        this.deps.logger.warn("channel album failed", { channel: this.channelId, update_id: parts[0]!.updateId, err: err instanceof Error ? err.message : String(err) });
      });
    });
  }

  /** At start: albums a stop or crash cut short gather again (their parts were kept) and go once quiet. */
  resumeAlbums(): void {
    for (const part of this.deps.albumParts.albumParts(this.channelId)) if (part.mediaGroupId) this.albums.add({ ...part, mediaGroupId: part.mediaGroupId });
  }

  /** The channel stops: albums still gathering wait (kept) for the next start; one being sent is awaited. */
  async stop(): Promise<void> {
    this.albums.abandon();
    await this.albumWork;
  }

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
    // In a group only the owner's messages count, and only in a group of just the owner and the bot (group-gate.ts).
    const inGroup = update.chatType === "group" ? await this.groupGate.admit(channel, update) : null;
    if (inGroup === "quiet") return;
    const isOwner =
      inGroup !== null
        ? inGroup === "owner"
        : channel.owner !== null && sender !== null && sender.id === channel.owner.userId && update.chatId === channel.owner.chatId;
    // While a code is out, a code-shaped text in a private chat is a pairing attempt (a late one
    // is noted for the page). Only a stranger's wrong attempt is a guess, counted against that
    // sender alone: the owner's text that merely looks like one is a message.
    const code = sender && text && update.chatType === "private" && this.deps.pairing.pending(channel.id) ? offeredCode(text) : null;
    if (code && sender && (!isOwner || this.deps.pairing.matches(channel.id, code, now))) {
      if (this.deps.pairing.claim(channel.id, code, sender.id, now)) return this.pair(channel, update, sender);
    }
    if (!isOwner) {
      // A tap must be acknowledged or the tapper's button spins; it changes nothing and is counted like any stranger's.
      if (update.callback) this.acknowledgeTap(update.callback.id, "These buttons answer to this bot's owner only.");
      return this.ignore();
    }
    this.deps.channels.bump(channel.id, "messagesIn");
    if (update.callback) return this.tap(update, update.callback);
    const chat: ChatKey = { channelId: channel.id, chatId: update.chatId, threadId: update.threadId ?? "" };
    const spoken = update.files?.find((f) => f.kind === "voice" || f.kind === "audio");
    if (!spoken && update.files?.length && update.mediaGroupId) {
      // Kept before this update counts as handled (the runner records its offset next).
      this.deps.albumParts.keepAlbumPart(channel.id, update, now);
      return this.albums.add({ ...update, mediaGroupId: update.mediaGroupId });
    }
    // An album of this chat still gathering goes first: the message after it (a voice note too)
    // stays after it.
    this.albums.closeChat(update.chatId);
    await this.albumWork;
    if (spoken) return this.voice(channel, chat, update, spoken);
    if (update.files?.length) return this.message(channel, chat, update, text ?? "", update.files);
    if (!text) return this.reply(update, "Only text messages, photos and files reach the agent.");
    const command = parseCommand(text);
    if (command) {
      if (this.topics.handles(chat, command, inGroup === "owner")) return this.reply(update, await this.topics.run(channel, chat, command));
      const answer = await this.commands.run(channel, chat, command);
      return answer === null ? undefined : this.reply(update, answer);
    }
    await this.message(channel, chat, update, text);
    this.topics.renameAfterFirstMessage(chat, text);
  }

  /**
   * A voice note or audio from the owner: transcribed, echoed ("🎤 heard: …") so the owner sees
   * what was understood, then sent as any phone message would be, marked voice. Off, failed or
   * empty: one line and nothing sent. A redelivered update whose message was already taken is
   * not fetched or transcribed again (the same client id as `message` uses).
   */
  private async voice(channel: ChannelRecord, chat: ChatKey, update: InboundUpdate, file: InboundFile): Promise<void> {
    const current = this.deps.channels.activeConversation(chat);
    if (current && this.deps.turnQueue.alreadySent(current, phoneClientId(channel.id, update.updateId))) return;
    const heard = await this.voiceNotes.hear(file, this.deps.stopSignal);
    if ("line" in heard) return this.reply(update, heard.line);
    this.reply(update, echoText(heard.transcript));
    return this.message(channel, chat, update, heard.transcript, [], true);
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
    if (move && from !== null) this.commands.forgetChat(from);
    this.deps.audit("channel_paired", {
      channel_id: channel.id,
      channel: channel.name,
      owner: sender.name,
      replaced: channel.owner !== null,
      ...(move ? { moved_conversations: move.conversations.map((c) => c.id), dropped_outbox: move.droppedOutbox } : {}),
    });
    const moved = move ? `${movedText(move)}\n\n` : "";
    this.reply(update, `Paired. Hello ${sender.name}: this chat now drives your Coffer.\n\n${moved}${HELP_TEXT}`);
    for (const c of move?.conversations ?? []) {
      this.deps.conversationSettings.bindChannel(c.id, { channel: channel.kind, chatId: to, channelId: channel.id });
      this.deps.relayIfRunning(c.id, to, null);
    }
  }

  /** A gathered album: one message with every part's files in order, the captions as its text. */
  private async album(parts: readonly InboundUpdate[]): Promise<void> {
    const drop = () => this.deps.albumParts.dropAlbumParts(this.channelId, parts.map((p) => p.updateId));
    try {
      await this.sendAlbum(parts);
    } catch (err) {
      // Cut short by a stop: kept for the next start. Any other fault: dropped (logged), never retried forever.
      if (!this.deps.files.stopping.aborted) drop();
      throw err;
    }
    drop();
  }

  private async sendAlbum(parts: readonly InboundUpdate[]): Promise<void> {
    const first = parts[0]!;
    const channel = this.deps.channels.get(this.channelId);
    // Re-paired or removed while the album gathered: it was the old owner's.
    if (!channel?.owner || channel.owner.chatId !== first.chatId) return;
    const chat: ChatKey = { channelId: channel.id, chatId: first.chatId, threadId: first.threadId ?? "" };
    const text = parts.flatMap((p) => (p.text ? [p.text] : [])).join("\n\n");
    await this.message(channel, chat, first, text, parts.flatMap((p) => p.files ?? []));
  }

  /**
   * Text and files into the active conversation's queue. Files are fetched only when the message
   * will be sent (not a repeat, the queue not full); if any cannot be, nothing is sent and the
   * phone gets one line saying why.
   */
  private async message(channel: ChannelRecord, chat: ChatKey, update: InboundUpdate, text: string, files: readonly InboundFile[] = [], voice = false): Promise<void> {
    // A question captures the chat's next message only when it was asked in the chat's current
    // conversation; after /new or /open the message goes where the owner now talks, and a
    // question left open elsewhere is shown again instead (docs/decisions.md, "Hardening II: the phone channel").
    // A message with files is never an answer: it waits in the queue behind the asking turn.
    const questions = this.deps.openQuestions(update.chatId, update.threadId);
    const current = this.deps.channels.activeConversation(chat);
    const question = files.length ? undefined : questions.find((q) => q.conversationId === current);
    if (question) return this.answer(update, question, text);
    for (const q of questions) if (q.conversationId !== current) this.reshow(update, q);
    const conversationId = await this.commands.activeConversation(channel, chat);
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
    // The update id makes the send idempotent: a redelivered update (restart) is recognised
    // (an album's, by its first part) — before its files are fetched, so they are not stored twice.
    const clientId = phoneClientId(channel.id, update.updateId);
    if (files.length && this.deps.turnQueue.alreadySent(conversationId, clientId)) return;
    const fetched = files.length ? await storePhoneFiles(this.deps.files, files) : { stored: [] };
    if ("refused" in fetched) return this.reply(update, fetched.refused);
    let sent;
    try {
      sent = await this.deps.turnQueue.send(conversationId, text, clientId, "queue", fetched.stored, voice);
    } catch (err) {
      this.deps.files.attachments.release(fetched.stored.map((a) => a.id));
      throw err;
    }
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
      this.deps.questionDesk.answer(question.conversationId, question.questionId, answers, this.deps.surface);
    } catch (err) {
      // Answered on another screen first (409 names the winner), or it closed meanwhile.
      if (err instanceof DomainError) return this.reply(update, `⚠️ ${err.message}`);
      throw err;
    }
  }

  /**
   * A tap on one of the bot's buttons: a single choice's option answers at once; a
   * multi-select's option is picked or unpicked, and Send answers with the picks; Stop stops
   * the turn it was shown under. A tap that comes too late (another screen answered, or the
   * turn ended) is told so over the chat, and nothing reaches the agent.
   */
  private async tap(update: InboundUpdate, callback: { id: string; data: string }): Promise<void> {
    const action = parseButton(callback.data);
    if (!action) return this.acknowledgeTap(callback.id, "This button no longer does anything.");
    if (action.kind === "stop") return this.stopTap(callback.id, action.turnId);
    const conversationId = this.deps.questionConversation(action.questionId);
    const asked = conversationId ? this.deps.questionDesk.list(conversationId).questions.find((q) => q.question_id === action.questionId) : undefined;
    if (!conversationId || !asked || asked.state !== "open") return this.acknowledgeTap(callback.id, closedNotice(asked));
    const questions = asked.questions;
    if (action.kind === "answer") {
      const q = questions.length === 1 && !questions[0]!.multi_select ? questions[0]! : undefined;
      if (q?.optional && action.option === SKIP_OPTION) return this.tapAnswer(callback.id, conversationId, asked.question_id, [{ selected: [] }], "✅ Skipped");
      const option = q?.options[action.option];
      if (!option) return this.acknowledgeTap(callback.id, "That option is not on the question.");
      return this.tapAnswer(callback.id, conversationId, asked.question_id, [{ selected: [option.label] }], `✅ ${option.label}`);
    }
    const shown = this.deps.board.open(asked.question_id, update.chatId);
    const toggled = questions.length > 1 || questions[0]?.multi_select === true;
    if (!shown || !toggled) return this.acknowledgeTap(callback.id, closedNotice(undefined));
    if (action.kind === "toggle") {
      const { question, option } = pickOf(action.option);
      const q = questions[question];
      const label = option === SKIP_OPTION && q?.optional && questions.length > 1 ? "Skip" : q?.options[option]?.label;
      if (!label) return this.acknowledgeTap(callback.id, "That option is not on the question.");
      this.deps.board.toggle(asked.question_id, action.option);
      const prefix = questions.length > 1 ? `Q${question + 1} · ` : "";
      return this.acknowledgeTap(callback.id, `${shown.picks.has(action.option) ? "✓" : "✗"} ${prefix}${label}`);
    }
    const made = answersFromPicks(questions, shown.picks);
    if ("missing" in made) {
      return this.acknowledgeTap(callback.id, questions.length > 1 ? `Answer Q${made.missing + 1} first.` : "Pick at least one option first.");
    }
    const said = made.answers.map((a) => (a.selected.length ? a.selected.join(", ") : "skipped"));
    const notice = questions.length > 1 ? `✅ ${said.map((t, i) => `Q${i + 1} ${t}`).join(" · ")}` : made.answers[0]!.selected.length ? `✅ ${said[0]}` : "✅ Left empty";
    return this.tapAnswer(callback.id, conversationId, asked.question_id, made.answers, notice);
  }

  private tapAnswer(callbackId: string, conversationId: string, questionId: string, answers: QuestionAnswer[], notice: string): void {
    try {
      this.deps.questionDesk.answer(conversationId, questionId, answers, this.deps.surface);
      this.acknowledgeTap(callbackId, notice);
    } catch (err) {
      // Lost the race: the notice says which answer won ("Answered from the page: Blue").
      if (err instanceof DomainError) return this.acknowledgeTap(callbackId, err.message);
      throw err;
    }
  }

  /** Stop, as /stop does (the engine's stop; the queue is held), for the turn the button was shown under only. */
  private async stopTap(callbackId: string, turnId: string): Promise<void> {
    const conversationId = this.deps.runningTurn(turnId);
    if (!conversationId || !this.deps.turnLifecycle.isRunning(conversationId)) return this.acknowledgeTap(callbackId, "Nothing to stop: that reply already ended.");
    this.acknowledgeTap(callbackId, "⏹ Stopping…");
    // The relay says the rest ("⏹ Stopped after …") and takes the progress message, Stop and all, away.
    await this.deps.turnLifecycle.interrupt(conversationId);
  }

  private acknowledgeTap(callbackId: string, text: string): void {
    this.courier.tryEphemeral((conn) => conn.answerCallback(callbackId, text), true);
  }

  /** Once per question per poll batch: a burst of messages elsewhere does not repeat it. */
  private reshow(update: InboundUpdate, q: ChatQuestion): void {
    if (this.reshown.has(q.questionId)) return;
    if (this.batch) this.reshown.add(q.questionId);
    const title = this.commands.findConversation(q.conversationId)?.title ?? "another conversation";
    this.reply(update, `❓ Still waiting for your answer in “${title}” (this message went to the current conversation; /list, then /open it to answer):\n\n${questionText(q.questions)}`);
  }

  private acknowledge(update: InboundUpdate, change: (ack: BatchAck) => void): void {
    const key = `${update.chatId}\u0000${update.threadId ?? ""}`;
    const ack = this.batch?.get(key) ?? { chatId: update.chatId, threadId: update.threadId, queued: 0, waiting: 0, refused: 0, resumed: false };
    change(ack);
    if (this.batch) this.batch.set(key, ack);
    else this.reply(update, ackText(ack));
  }

  private reply(update: InboundUpdate, text: string): void {
    this.courier.enqueue(update.chatId, update.threadId, [{ text }]);
  }
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

/** What a tap on a closed question hears: who answered it and what, or that its turn ended. */
function closedNotice(asked: AskedQuestionOut | undefined): string {
  if (asked?.answers) return `Already answered from ${surfaceName(asked.by)}: ${asked.answers.map(answerText).join(" | ")}`;
  return "That question is closed: its turn has ended.";
}

/** The client id of a phone message: a redelivered update (restart) carries the same one. */
function phoneClientId(channelId: string, updateId: string): string {
  return `${phoneClientPrefix(channelId)}${updateId}`;
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

import type { ChannelKind, ChannelState } from "@coffer/protocol";

// ---- The platform seam: what a channel needs from an IM platform (Telegram via grammY in
// infrastructure/telegram). Application code never sees an SDK type or a token-bearing URL.

/** Why a platform call failed, in the application's words; `message` never holds the token. */
export type PlatformFailureKind =
  | "unauthorized" // the token is revoked or wrong: the owner must act
  | "conflict" // another poller (or a webhook) holds this bot
  | "rate_limited" // the platform asked us to wait (`retryAfterMs`) and retries ran out
  | "unreachable" // network error, timeout or a 5xx
  | "rejected"; // a 4xx for this one request (chat not found, message too long): retrying will not help

export class PlatformFailure extends Error {
  constructor(
    readonly kind: PlatformFailureKind,
    message: string,
    readonly retryAfterMs?: number,
    /** The low-level cause (an errno code such as ENOTFOUND), for details and logs, never the message's ending. */
    readonly cause_code?: string,
  ) {
    super(message);
    this.name = "PlatformFailure";
  }
}

export interface BotIdentity {
  readonly id: string;
  readonly username: string;
  readonly name: string;
}

/** One inbound update, reduced to what a channel reads. Content of strangers is never stored. */
export interface InboundUpdate {
  /**
   * Opaque, unique within the channel (Telegram: the update_id as text; Discord: the message's or
   * interaction's snowflake): the phone message's client id is built from it, so a redelivered
   * update is recognised.
   */
  readonly updateId: string;
  readonly chatId: string;
  /** Forum topic / thread, when the platform has one; null for a plain DM. */
  readonly threadId: string | null;
  readonly chatType: "private" | "group" | "channel" | "other";
  /** Null for updates without a sender (channel posts, anonymous admins): never the owner. */
  readonly sender: { readonly id: string; readonly name: string } | null;
  /** The message text (or caption); null for updates without text (stickers, joins…). */
  readonly text: string | null;
  /** A tap on one of the bot's inline buttons: the button's data, and the id to acknowledge the tap by. */
  readonly callback?: { readonly id: string; readonly data: string } | null;
  /** Files the message carries (a photo's largest size, a document, a voice note or audio); absent when none. */
  readonly files?: readonly InboundFile[];
  /** Parts of one album share this id (Telegram sends each part as its own update). */
  readonly mediaGroupId?: string | null;
  /** A group chat that has Topics turned on (Telegram's forum supergroup); absent when the platform does not say. */
  readonly isForum?: boolean;
  /** Someone joined or left the group (the bot too): its members are counted again (group-gate.ts). */
  readonly membersChanged?: boolean;
}

/** A file on the platform, fetched only when used (`BotConnection.downloadFile`). */
export interface InboundFile {
  readonly kind: "photo" | "document" | "voice" | "audio" | "video";
  /** The platform's id to fetch it by. */
  readonly fileId: string;
  /** The sender's file name, or one made up from the kind (photos and voice notes have none). */
  readonly name: string;
  readonly mediaType: string;
  /** Bytes, when the platform says (Telegram does for nearly every file). */
  readonly size: number | null;
}

/** A file's bytes as they arrive; reading it may reject with PlatformFailure (a stalled or cut download). */
export type FileChunks = AsyncIterable<Uint8Array>;

/** One inline button under a message; `data` comes back in the tap's update (at most 64 bytes on Telegram). */
export interface MessageButton {
  readonly text: string;
  readonly data: string;
}

/** A message ready to send: `html` first; `text` when the platform refuses the markup. */
export interface OutgoingMessage {
  readonly text: string;
  readonly html?: string;
  /** Deliver without a notification sound (continuation parts). */
  readonly silent?: boolean;
  /** Inline buttons, one array per row (a single-choice question's options: one tap answers). */
  readonly buttons?: readonly (readonly MessageButton[])[];
  /** A file the agent shared, sent as a photo or a document with `text` as its caption (may be empty). */
  readonly file?: OutgoingFile;
}

/** What an edit may change of a sent text message: its text (plain or markup) and its buttons. */
export type EditedMessage = Pick<OutgoingMessage, "text" | "html" | "buttons">;

/**
 * A shared file queued for a chat: the outbox keeps the attachment's id, and the courier reads
 * its bytes only when it sends (a file deleted with its conversation meanwhile is not sent).
 */
export interface OutgoingFile {
  readonly attachmentId: string;
  readonly name: string;
  readonly mediaType: string;
  readonly size: number;
  /** photo: shown in the chat; document: the file as it is. The relay picks by the platform's limits. */
  readonly as: "photo" | "document";
}

/** A shared file's bytes as the platform uploads them. */
export interface UploadFile {
  readonly as: "photo" | "document";
  readonly name: string;
  readonly mediaType: string;
  /** Where the stored bytes are (read at each attempt, so a retry sends them whole). */
  readonly path: string;
}

/** What a platform takes as an upload (Telegram's Bot API: photos to 10 MB, other files to 50 MB). */
export interface UploadLimits {
  readonly photoMaxBytes: number;
  readonly documentMaxBytes: number;
  /** The media types the platform shows as a photo; any other file goes as a document. */
  readonly photoTypes: readonly string[];
}

export interface BotCommand {
  readonly command: string;
  readonly description: string;
}

/** What a platform's update loop hands the application, one update at a time. */
export interface UpdateSink {
  /**
   * Handles one update; the adapter awaits it before handing the next. The runner then persists
   * `cursor` (resuming from it never hands this update again). After the stop it handles nothing
   * and persists nothing: what was not handled is the platform's to offer again.
   */
  deliver(update: InboundUpdate, cursor: string): Promise<void>;
  /** Album gathering works per batch (one poll's updates / one burst); the adapter brackets what arrived together. */
  beginBatch(): void;
  endBatch(): void;
  /** The platform answered: the channel is live. */
  healthy(): void;
  /** A transient failure the adapter is retrying itself (shown as the channel's status). */
  trouble(failure: PlatformFailure): void;
}

/** A connected bot: every call may throw PlatformFailure. */
export interface BotConnection {
  getMe(): Promise<BotIdentity>;
  /**
   * Runs the update loop from `cursor` (null: a fresh channel) until `signal` aborts (then it
   * resolves); rejects with a PlatformFailure only when it cannot go on (unauthorized). The
   * adapter owns its pacing (long-poll timeouts, backoff, reconnects) and its redelivery rule.
   */
  receive(cursor: string | null, sink: UpdateSink, signal: AbortSignal): Promise<void>;
  /**
   * Sends (falling back to plain text when the markup is refused); resolves the message id.
   * `signal` calls it off (retries too). `deliveryKey` is the outbox row's own key: a platform
   * that can dedupe by it (Discord's enforced nonce) never shows a message twice when a crash
   * came between its send and the row's "delivered"; others ignore it.
   */
  send(chatId: string, threadId: string | null, message: OutgoingMessage, signal?: AbortSignal, deliveryKey?: string): Promise<string>;
  /**
   * Replaces a sent message's text and buttons with `message`'s: buttons absent = none (a
   * question's options withdrawn, a progress message's Stop gone). A message already showing
   * this resolves quietly.
   */
  edit(chatId: string, messageId: string, message: EditedMessage): Promise<void>;
  delete(chatId: string, messageId: string): Promise<void>;
  /** Acknowledges a button tap, with a short notice the phone shows over the chat. */
  answerCallback(callbackId: string, text: string): Promise<void>;
  /** The command menu of one chat only (never the default scope: strangers would see it). */
  setCommands(chatId: string, commands: readonly BotCommand[]): Promise<void>;
  /** Removes the command menu of one chat, or of the default scope (null). */
  clearCommands(chatId: string | null): Promise<void>;
  /**
   * A file's bytes, streamed (Telegram: getFile, then the file URL; the URL holds the token, so
   * no failure names it). Rejects with PlatformFailure ("rejected" for a file over the platform's
   * download limit). `signal` calls it off, also mid-stream.
   */
  downloadFile(fileId: string, signal?: AbortSignal): Promise<FileChunks>;
  /** Uploads a file (a photo or a document) with a caption; resolves the message id. `signal` calls it off. */
  sendFile(chatId: string, threadId: string | null, file: UploadFile, caption: string, signal?: AbortSignal, deliveryKey?: string): Promise<string>;
  /** How many members a group has, the bot included (Telegram: getChatMemberCount). Absent: the platform serves no groups. */
  memberCount?(chatId: string): Promise<number>;
  /** Opens a forum topic in a group; resolves its thread id (Telegram: createForumTopic, needs "Manage topics"). */
  createTopic?(chatId: string, name: string): Promise<string>;
  /** Renames a topic the bot opened (Telegram: editForumTopic). */
  renameTopic?(chatId: string, threadId: string, name: string): Promise<void>;
}

/** One credential the platform needs, declared by its adapter (the page's form is built from these). */
export interface PlatformCredential {
  /** The key in the channel's credential map, e.g. "bot_token". */
  readonly name: string;
  readonly label: string;
  /** Sealed in the credential store and never returned; false = a plain setting. */
  readonly secret: boolean;
  /** Where the owner gets it, in one line. */
  readonly hint: string | null;
}

/** One platform adapter (Telegram, …): connects bots and renders the agent's markdown in its format. */
export interface ChatPlatform {
  /** The name it registers under: a channel's kind (ChannelPlatforms maps kind → adapter). */
  readonly kind: ChannelKind;
  /** The platform as the owner names it ("Telegram"), in lines sent to the chat and on the page. */
  readonly displayName: string;
  /** What a channel of this kind needs to connect; the first secret one is its bot token today. */
  readonly credentials: readonly PlatformCredential[];
  /** How big a file the platform takes, as a photo and as a document. */
  readonly uploadLimits: UploadLimits;
  /**
   * The least time between two edits of one chat's progress message the platform tolerates
   * (Discord: about one per second per channel); the runner never edits faster. Absent: none.
   */
  readonly minEditIntervalMs?: number;
  /**
   * Each thread of a group has its own edit rate limit (a Discord thread is a channel of its
   * own), so two threads' progress messages are throttled apart; absent: one limit per chat
   * (Telegram counts a group as a whole, its topics included).
   */
  readonly editLimitPerThread?: boolean;
  /** The largest file a bot may download (Telegram's Bot API: 20 MB); null = no limit of its own. */
  readonly fileDownloadLimitBytes: number | null;
  /** Connects with the channel's resolved credentials (every declared one is present). */
  connect(credentials: CredentialValues): BotConnection;
  /**
   * Who the token belongs to, asked once without retries and with a short timeout: the owner
   * is waiting on a form, and a down network should say so in seconds, not after a backoff.
   */
  check(credentials: CredentialValues): Promise<BotIdentity>;
  /** Markdown → messages under the platform's size limit, split on paragraph boundaries, never inside a code block. */
  render(markdown: string): OutgoingMessage[];
  /** The link that opens the bot with a start parameter (pairing in one tap), if the platform has one. */
  deepLink(botUsername: string, startParameter: string): string | null;
  /**
   * How the platform names a group's threads in the lines the bot says there (Discord's
   * "thread" in a server's channel); absent: Telegram's forum topics (`TOPIC_WORDS`).
   */
  readonly threadWords?: ThreadWords;
}

/**
 * The platform's words for threads as conversations (group-gate.ts, topic-commands.ts): the
 * lines are written once in the application and say what the owner sees on their platform.
 */
export interface ThreadWords {
  /** One thread: "topic" (Telegram), "thread" (Discord). */
  readonly thread: string;
  /** What holds the members counted: "group", "server". */
  readonly group: string;
  /** Where the threads hang: "group" (Telegram's forum), "channel" (Discord). */
  readonly place: string;
  /** What the owner grants so the bot may open threads, as an imperative sentence. */
  readonly grant: string;
  /** How to turn threads on where they are off (said to a group of two that has none). */
  readonly turnOn: string;
}

// ---- Storage ---------------------------------------------------------------------------

/** A channel's credentials: each declared name → the credential ref holding it. */
export type CredentialRefs = Readonly<Record<string, string>>;
/** The same, resolved (in memory only, for connecting). */
export type CredentialValues = Readonly<Record<string, string>>;

export interface ChannelOwner {
  readonly chatId: string;
  readonly userId: string;
  readonly name: string;
  readonly pairedAt: number;
}

export interface ChannelRecord {
  readonly id: string;
  readonly kind: ChannelKind;
  readonly name: string;
  /** Credential name (as the adapter declares it) → credential ref; the values stay sealed in the credential store. */
  readonly credentialRefs: CredentialRefs;
  readonly defaultAgent: string;
  readonly defaultCwd: string | null;
  readonly defaultModel: string | null;
  readonly enabled: boolean;
  readonly bot: BotIdentity | null;
  readonly owner: ChannelOwner | null;
  /** The adapter's opaque cursor: every update before it was handled (or given up on); null = none yet. */
  readonly cursor: string | null;
  readonly messagesIn: number;
  readonly messagesOut: number;
  readonly strangersIgnored: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type ChannelCounter = "messagesIn" | "messagesOut" | "strangersIgnored";

export interface NewChannel {
  readonly id: string;
  readonly kind: ChannelKind;
  readonly name: string;
  /** Credential name (as the adapter declares it) → credential ref; the values stay sealed in the credential store. */
  readonly credentialRefs: CredentialRefs;
  readonly defaultAgent: string;
  readonly defaultCwd: string | null;
  readonly defaultModel: string | null;
  readonly bot: BotIdentity;
  readonly now: number;
}

export interface ChannelChanges {
  readonly name?: string;
  readonly credentialRefs?: CredentialRefs;
  readonly defaultAgent?: string;
  readonly defaultCwd?: string | null;
  readonly defaultModel?: string | null;
  readonly bot?: BotIdentity;
}

/** A message waiting to be delivered, oldest first. Rows leave only when delivered (or refused for good, logged). */
export interface OutboxRow {
  readonly id: number;
  readonly channelId: string;
  readonly chatId: string;
  readonly threadId: string | null;
  readonly message: OutgoingMessage;
  readonly attempts: number;
}

export interface ChatKey {
  readonly channelId: string;
  readonly chatId: string;
  /** "" for a chat without threads. */
  readonly threadId: string;
}

export interface ChannelStore {
  transaction<T>(fn: () => T): T;
  list(): ChannelRecord[];
  get(id: string): ChannelRecord | null;
  findByName(name: string): ChannelRecord | null;
  findByBotId(botId: string): ChannelRecord | null;
  insert(channel: NewChannel): void;
  update(id: string, changes: ChannelChanges, now: number): void;
  setEnabled(id: string, enabled: boolean, now: number): void;
  /** Removes the channel, its chats and its outbox; its conversations stay, unbound. */
  delete(id: string): void;
  setOwner(id: string, owner: ChannelOwner): void;
  /** Persists the adapter's cursor once an update was handled; null forgets it (another bot). */
  setCursor(id: string, cursor: string | null): void;
  bump(id: string, counter: ChannelCounter, by?: number): void;

  activeConversation(chat: ChatKey): string | null;
  setActiveConversation(chat: ChatKey, conversationId: string): void;
  countBoundConversations(channelId: string): number;
  /** The conversations bound to this channel in any chat but `chatId`, most recent first. */
  boundElsewhere(channelId: string, chatId: string): string[];
  /**
   * The owner's chat moved to `toChatId`: every other chat's undelivered messages are dropped
   * (their count returned) and its state forgotten; `fromChatId`'s active conversation becomes
   * the new chat's. One transaction.
   */
  moveOwnerChat(channelId: string, fromChatId: string, toChatId: string): number;

  /** Queues the messages in order; resolves their row ids (the same order). */
  enqueue(channelId: string, chatId: string, threadId: string | null, messages: readonly OutgoingMessage[], now: number): number[];
  /** The oldest undelivered rows of one channel. */
  outbox(channelId: string, limit: number): OutboxRow[];
  countOutbox(channelId: string): number;
  delivered(rowId: number): void;
  failedAttempt(rowId: number): void;
}

/**
 * Album parts received and not yet sent. A part is kept before its update counts as handled and
 * dropped once its album went (or was refused with a line): a restart inside an album's quiet
 * window sends it then, once.
 */
export interface AlbumPartStore {
  keepAlbumPart(channelId: string, part: InboundUpdate, now: number): void;
  /** This channel's waiting parts, oldest first. */
  albumParts(channelId: string): InboundUpdate[];
  dropAlbumParts(channelId: string, updateIds: readonly string[]): void;
}

/** The live state of a channel's poller, kept in memory (GET /channels/{id} shows it). */
export interface ChannelLiveStatus {
  readonly state: ChannelState;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
}

import type { PrincipalScope } from "./application/auth/principal-ports.js";
import type { AgentRegistry } from "./application/agent-registry.js";
import { ChannelRuntime } from "./application/channels/channel-runtime.js";
import { DEFAULT_CHANNEL_TIMINGS, type ChannelTimings } from "./application/channels/channel-runner.js";
import { ChannelService } from "./application/channels/channel-service.js";
import { PairingCodes } from "./application/channels/pairing-codes.js";
import { ChannelPlatforms } from "./application/channels/platform-registry.js";
import type { PhoneSchedules } from "./application/channels/schedule-commands.js";
import type { VoiceTranscription } from "./application/channels/voice-notes.js";
import type { AttachmentService } from "./application/attachments/attachment-service.js";
import type { ConversationService } from "./application/conversations.js";
import type { AlarmClock } from "./application/timing/alarm-ports.js";
import type { ConversationSettings } from "./application/conversation-settings.js";
import type { AuditSink, CredentialResolver } from "./application/credentials/ports.js";
import type { Clock, ConversationStore, IdGenerator, Logger, PendingStore } from "./application/ports.js";
import type { TurnRooms } from "./application/turns/turn-rooms.js";
import type { DaemonConfig } from "./config.js";
import type { Db } from "./infrastructure/sqlite/database.js";
import { sqliteAlbumPartStore } from "./infrastructure/sqlite/stores/sqlite-album-part-store.js";
import { SqliteChannelGroupStore } from "./infrastructure/sqlite/stores/sqlite-channel-group-store.js";
import { SqliteChannelStore } from "./infrastructure/sqlite/stores/sqlite-channel-store.js";
import { TelegramPlatform, type TelegramRetryOptions } from "./infrastructure/telegram/telegram-platform.js";
import { DiscordPlatform } from "./infrastructure/discord/discord-platform.js";

export interface ChannelGraphDeps {
  readonly db: Db;
  readonly config: Pick<DaemonConfig, "telegram" | "discord" | "timeZone">;
  /** Tests shorten the backoff and the edit interval; the poll timeout comes from config. */
  readonly timings?: Partial<ChannelTimings>;
  /** grammY-level retries of one request (tests shorten the backoff). */
  readonly telegramRetry?: TelegramRetryOptions;
  /** Spacing between Discord IDENTIFYs (tests against the fake use 0). */
  readonly discordIdentifySpacingMs?: number;
  readonly chats: ConversationStore;
  readonly pending: PendingStore;
  readonly conversations: ConversationService;
  readonly conversationSettings: ConversationSettings;
  readonly turns: TurnRooms;
  readonly registry: AgentRegistry;
  readonly credentials: CredentialResolver;
  readonly audit: AuditSink;
  readonly principals: PrincipalScope;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Speech to text for the phone's voice notes (the connection set in Settings → Connections). */
  readonly transcription: VoiceTranscription;
  /** Where a file the agent shared is stored, for the chat's upload; null once it is gone. */
  readonly sharedFilePath?: (attachmentId: string) => string | null;
  /** The owner's photos and documents from the phone land here, under the same cap as uploads. */
  readonly attachments: AttachmentService;
  readonly alarms: AlarmClock;
  /** The owner's schedules, for the phone's /schedules (the API's service: the same checks and audit). */
  readonly schedules: PhoneSchedules;
}

/** Part of the composition root: IM channels (Telegram via grammY), their runtime and service. */
export function composeChannels(d: ChannelGraphDeps): { service: ChannelService; runtime: ChannelRuntime; platforms: ChannelPlatforms } {
  const store = new SqliteChannelStore(d.db);
  const timings: ChannelTimings = { ...DEFAULT_CHANNEL_TIMINGS, ...d.timings };
  // Each adapter owns its update loop: Telegram's long poll takes its timeout from config and the
  // channels' backoff (tests shorten it).
  const telegram = new TelegramPlatform({
    apiRoot: d.config.telegram.apiRoot,
    retry: d.telegramRetry,
    poll: { pollTimeoutSeconds: d.config.telegram.pollTimeoutSeconds, backoffMs: timings.backoffMs },
  });
  const discord = new DiscordPlatform({
    apiRoot: d.config.discord.apiRoot,
    backoffMs: timings.backoffMs,
    ...(d.discordIdentifySpacingMs !== undefined ? { identifySpacingMs: d.discordIdentifySpacingMs } : {}),
  });
  // The platform registry: one adapter per kind. A new platform is one more entry here.
  const platforms = new ChannelPlatforms([telegram, discord]);
  const pairing = new PairingCodes();
  const runtime = new ChannelRuntime(
    {
      channels: store,
      chats: d.chats,
      pending: d.pending,
      conversations: d.conversations,
      conversationSettings: d.conversationSettings,
      turnQueue: d.turns.queue,
      turnLifecycle: d.turns.lifecycle,
      questionDesk: d.turns.questions,
      schedules: d.schedules,
      laterQueue: d.turns.queue,
      timeZone: d.config.timeZone,
      turnReads: d.turns.reads,
      registry: d.registry,
      pairing,
      platforms,
      clock: d.clock,
      logger: d.logger,
      timings,
      audit: (action, details) => d.audit("user", action, details, d.clock.now()),
      resolveCredentials: (refs) => Object.fromEntries(Object.entries(refs).map(([name, ref]) => [name, d.credentials.resolve(ref)])),
      principals: d.principals,
      transcription: d.transcription,
      ...(d.sharedFilePath ? { sharedFilePath: d.sharedFilePath } : {}),
      attachments: d.attachments,
      alarms: d.alarms,
      albumParts: sqliteAlbumPartStore(d.db),
      groups: new SqliteChannelGroupStore(d.db),
    },
    d.turns.starts,
  );
  const service = new ChannelService({
    store,
    platforms,
    credentials: d.credentials,
    registry: d.registry,
    conversationSettings: d.conversationSettings,
    runtime,
    pairing,
    audit: d.audit,
    clock: d.clock,
    ids: d.ids,
  });
  return { service, runtime, platforms };
}

import { existsSync } from "node:fs";
import { AttachmentService } from "./application/attachments/attachment-service.js";
import { TranscriptionService } from "./application/transcription/transcription-service.js";
import type { TranscriptionConnectionSource } from "./application/transcription/transcription-ports.js";
import { OpenAiTranscriber } from "./infrastructure/transcription/openai-transcriber.js";
import { SqliteAttachmentStore } from "./infrastructure/sqlite/stores/sqlite-attachment-store.js";
import { FileAttachmentBlobs } from "./infrastructure/system/attachment-blobs.js";
import { FileAgentFileCopies } from "./infrastructure/system/agent-file-copies.js";
import { SharpImageFitter } from "./infrastructure/images/sharp-image-fitter.js";
import type { AddressInfo } from "node:net";
import { dirname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentModelCatalog } from "./application/agent-models.js";
import { AgentRegistry } from "./application/agent-registry.js";
import { DaemonAuth } from "./application/auth/daemon-auth.js";
import { ConversationService } from "./application/conversations.js";
import { ConversationSettings } from "./application/conversation-settings.js";
import { ConversationThread } from "./application/conversation-thread.js";
import { ConversationViews } from "./application/conversation-views.js";
import type { AgentProvider, Clock, IdGenerator, Logger } from "./application/ports.js";
import { BusHub } from "./application/turns/bus-hub.js";
import { ConversationListEvents } from "./application/turns/list-events.js";
import { AlertSettings } from "./application/alerts/alert-settings.js";
import { OpenQuestionLedger } from "./application/alerts/open-question-ledger.js";
import { OwnerAlerts } from "./application/alerts/owner-alerts.js";
import { QuestionSettings } from "./application/alerts/question-settings.js";
import { SqliteHoldStore } from "./infrastructure/sqlite/stores/sqlite-hold-store.js";
import { SqliteContextStore } from "./infrastructure/sqlite/stores/sqlite-context-store.js";
import { SqliteSettingsStore } from "./infrastructure/sqlite/stores/sqlite-settings-store.js";
import { buildTurnRooms, shutdownTurns, type TurnRooms } from "./application/turns/turn-rooms.js";
import type { RetentionWorker } from "./application/retention/retention-worker.js";
import { BuiltinToolRegistry } from "./application/gateway/builtin-tools.js";
import { ToolGateway } from "./application/gateway/gateway.js";
import { invocationOut } from "./application/gateway/invocation-out.js";
import type { GatewayAccess } from "./application/gateway/gateway-ports.js";
import { McpInvocations } from "./application/gateway/mcp-invocations.js";
import { McpServerService } from "./application/gateway/mcp-servers.js";
import { searchToolsTool } from "./application/gateway/tool-search.js";
import { composeChannels } from "./compose-channels.js";
import type { ChannelPlatforms } from "./application/channels/platform-registry.js";
import { TOPIC_WORDS } from "./application/channels/thread-words.js";
import type { ThreadNouns } from "./application/presenters.js";
import { composeSettings } from "./compose-settings.js";
import { registerShareFile } from "./compose-share-file.js";
import { composeBackups, corruptionWayForward } from "./compose-backups.js";
import type { BackupService } from "./application/backup/backup-service.js";
import { DatabaseCorrupt } from "./domain/backup-errors.js";
import type { ChannelTimings } from "./application/channels/channel-runner.js";
import type { TelegramRetryOptions } from "./infrastructure/telegram/telegram-platform.js";
import { SecretScrubber } from "./application/secrets/secret-scrubber.js";
import { scrubbedUpstreams, scrubbingLogger } from "./application/secrets/scrubbing.js";
import { GatewayCredentials } from "./application/gateway/gateway-credentials.js";
import { knowledgeServices } from "./application/vault/knowledge.js";
import { MemoryService } from "./application/vault/memory.js";
import { SkillService } from "./application/vault/skills.js";
import { registerVaultTools, type VaultServices } from "./application/vault/vault-tools.js";
import type { DaemonConfig } from "./config.js";
import { createHttpApp } from "./http/app.js";
import { listenSocket, listenTcp, removeSocket } from "./listen.js";
import { asyncPrincipalScope } from "./infrastructure/system/principal-context.js";
import { loginHandoffFiles } from "./infrastructure/system/login-handoff-files.js";
import { withPrincipal } from "./infrastructure/sqlite/rows/audit-principal.js";
import { managedAgentProviders } from "./infrastructure/agents/providers.js";
import { FileSessionCopies } from "./infrastructure/agents/session-copies.js";
import type { HistoryCondenser } from "./application/agent-sessions/session-seed.js";
import { createGatewayEndpoint, gatewayRehearsal } from "./infrastructure/mcp/gateway-endpoint.js";
import { mcpServerSdk } from "./infrastructure/mcp/mcp-sdk.js";
import { DEFAULT_BACKOFF, UpstreamPool } from "./infrastructure/mcp/upstream-pool.js";
import { acquireDaemonLock, assertDatabaseUnused } from "./infrastructure/sqlite/daemon-lock.js";
import { openDatabase } from "./infrastructure/sqlite/database.js";
import { startCheck } from "./infrastructure/sqlite/start-check.js";
import { SqliteKnowledgeStore } from "./infrastructure/sqlite/stores/sqlite-knowledge-store.js";
import { SqliteMemoryStore } from "./infrastructure/sqlite/stores/sqlite-memory-store.js";
import { sqliteAuditPruner } from "./infrastructure/sqlite/stores/sqlite-audit-log.js";
import { SqliteAuditReader } from "./infrastructure/sqlite/stores/sqlite-audit-reader.js";
import { openChatStores } from "./infrastructure/sqlite/stores/sqlite-chat-stores.js";
import { SqliteMcpStore } from "./infrastructure/sqlite/stores/sqlite-mcp-store.js";
import { consoleLogger } from "./infrastructure/system/console-logger.js";
import { fileLogger } from "./infrastructure/system/file-logger.js";
import { checkDaemonInfoFile, removeDaemonInfo, writeDaemonInfo } from "./infrastructure/system/daemon-info-file.js";
import { ensurePrivateDir } from "./infrastructure/system/private-files.js";
import { loadOrCreateToken } from "./infrastructure/system/token-file.js";
import { randomIds, systemClock } from "./infrastructure/system/system-clock.js";
import { systemAlarmClock } from "./infrastructure/system/system-alarm-clock.js";
import { composeBrief } from "./compose-brief.js";
import { composeSchedules } from "./compose-schedules.js";
import type { AlarmClock } from "./application/timing/alarm-ports.js";
import { FileDocumentSource } from "./infrastructure/vault-files/file-document-source.js";
import { UploadedDocumentSource } from "./infrastructure/vault-files/uploaded-document-source.js";
import { SkillFolderLibrary } from "./infrastructure/vault-files/skill-folder-library.js";
import { PrewarmService } from "./application/warm-pool/prewarm.js";
import { SystemStats } from "./application/warm-pool/system-stats.js";
import { maxWarmAgents, WarmPool } from "./application/warm-pool/warm-pool.js";
import { databaseFiles } from "./infrastructure/sqlite/database-files.js";
import { SqliteAgentProcessLedger } from "./infrastructure/sqlite/stores/sqlite-agent-process-ledger.js";
import { reapOrphans } from "./infrastructure/system/orphan-reaper.js";
import { procProcessMemory, selfFootprint } from "./infrastructure/system/process-memory.js";

export { DEFAULT_PORT, resolveDaemonConfig, type DaemonConfig, type DaemonFlags } from "./config.js";
export type { AgentAdapter, AgentProvider, AdapterServices, TurnInput } from "./application/ports.js";
export { AgentConfigRejected, AgentUnavailable, DomainError } from "./domain/errors.js";

import { VERSION } from "./version.js";
export { VERSION };
export { restoreBackup, type RestoreResult } from "./data-care/restore.js";
export { backupOffline } from "./data-care/offline-backup.js";
export { contents, runDoctor, type DoctorFinding } from "./data-care/doctor.js";
export { readBackupManifest } from "./data-care/backup-file.js";

export interface StartOptions extends DaemonConfig {
  readonly env?: NodeJS.ProcessEnv;
  /** Replaces the registered agents (tests prove the provider seam with a test-only agent). */
  readonly providers?: (defaults: AgentProvider[]) => AgentProvider[];
  readonly logger?: Logger;
  readonly clock?: Clock;
  /**
   * Wall-clock alarms for work due at a time (send later, schedules, reminders). Defaults to the
   * system's, reading `clock`; tests pass a ManualAlarmClock (and the same object as `clock`).
   */
  readonly alarms?: AlarmClock;
  /**
   * Where the transcription connection comes from: by default the one set in Settings →
   * Connections; tests may pass a fixed one.
   */
  readonly transcriptionConnection?: TranscriptionConnectionSource;
  readonly ids?: IdGenerator;
  /** The built web app; defaults to packages/web/dist when it exists. */
  readonly webRoot?: string | null;
  /** Adds builtin gateway tools (tests register test-only tools here). */
  readonly extraBuiltinTools?: (registry: BuiltinToolRegistry) => void;
  /**
   * The port the daemon proof binds instead of the socket's own (docs/decisions.md, "Daemon
   * proof"). Only for a test that fronts the daemon with a TCP relay it trusts; not a flag or env var.
   */
  readonly proofPort?: number;
  /** Reconnect delays for upstream MCP servers (tests shorten them). */
  readonly mcpBackoff?: { readonly firstMs: number; readonly maxMs: number };
  /** Channel backoff and progress-edit interval (tests shorten them). */
  readonly channelTimings?: Partial<ChannelTimings>;
  /** Per-request Telegram retries (tests shorten the backoff). */
  readonly telegramRetry?: TelegramRetryOptions;
  /** Spacing between Discord IDENTIFYs (Discord's 5 s; tests against the fake use 0). */
  readonly discordIdentifySpacingMs?: number;
  /** When the first scheduled snapshot is taken after start (default 10 minutes; tests shorten it). */
  readonly backupFirstDelayMs?: number;
}

export interface RunningDaemon {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly home: string;
  /** The turn rooms (queue, lifecycle, questions, read side), as the routes and channels use them. */
  readonly turns: TurnRooms;
  readonly hub: BusHub;
  /** The conversation-list stream (tests silence it to prove nothing but the page depends on it). */
  readonly listEvents: ConversationListEvents;
  /** Coffer's own gateway tools (coffer__*), e.g. for calling coffer__ask in-process. */
  readonly builtinTools: BuiltinToolRegistry;
  /** Conversation retention: runs at start and every COFFER_RETENTION_INTERVAL_SECONDS; tests call runOnce(). */
  readonly retention: RetentionWorker;
  /** "Back up now" and the scheduled snapshots. */
  readonly backups: BackupService;
  close(): Promise<void>;
}

/** The one composition root: builds the whole graph and serves it on 127.0.0.1. */
export async function startDaemon(options: StartOptions): Promise<RunningDaemon> {
  const env = options.env ?? process.env;
  // One scrubber learns every credential value as it is set or resolved; the log, REST
  // bodies, upstream error text, audit rows and every agent event as it enters a turn go
  // through it (docs/decisions.md, "Secrets and audit", "Hardening II: scrubbing at the entry").
  const scrubber = new SecretScrubber();
  // JSON lines go to the log file, never into the terminal's banner (docs/decisions.md, "First start").
  const base = options.logger ?? (options.logFile ? fileLogger(options.logFile, options.logLevel) : consoleLogger(options.logLevel));
  const logger = scrubbingLogger(base, scrubber);
  const clock = options.clock ?? systemClock;
  // Wall-clock alarms for the features that wait for a time (issue 27: schedules).
  const alarms = options.alarms ?? systemAlarmClock(() => clock.now());
  const ids = options.ids ?? randomIds;
  const home = options.home;
  ensurePrivateDir(home);
  // Allowed (the owner chose it), but said: an agent started in the workspace finds the data dir at hand.
  if (isWithin(home, options.workspace)) logger.warn("the data dir is inside the workspace, where agents start; set COFFER_WORKSPACE to a folder of its own", { home, workspace: options.workspace });
  // One daemon per data dir, before anything reads or recovers state (docs/decisions.md, Storage).
  const lock = acquireDaemonLock(home);
  let token: string;
  let db: ReturnType<typeof openDatabase>;
  try {
    checkDaemonInfoFile(home);
    token = loadOrCreateToken(home, logger);
    assertDatabaseUnused(home, join(home, "coffer.db"));
    db = openDatabase(join(home, "coffer.db"), undefined, { check: startCheck(home, options.startCheckMaxBytes, logger) });
  } catch (err) {
    lock.release();
    // A damaged database is refused with the way forward: the latest snapshot's restore command.
    if (err instanceof DatabaseCorrupt) throw new DatabaseCorrupt(err.file, err.problem, corruptionWayForward(options.backup.folder, home, options.cliCommand));
    throw err;
  }
  // Every audit row carries the principal the server verified for the work that wrote it.
  const principals = asyncPrincipalScope();
  // The conversation, message and pending stores and the audit writer share this one handle.
  const chat = openChatStores(db, (details) => scrubber.scrubValue(withPrincipal(details, principals.current())));
  const audit = chat.audit;
  // Agents get the MCP gateway on every turn; its URL is known once the server listens. Each
  // (agent, conversation) gets its own gateway-only credential, never the daemon token.
  let gatewayUrl: string | undefined;
  const gatewayCredentials = new GatewayCredentials(token, (id) => chat.conversations.getConversation(id) !== null);
  const gatewayFor = (agentKey: string, conversationId: string): GatewayAccess | undefined =>
    gatewayUrl ? { url: gatewayUrl, token: gatewayCredentials.issue(agentKey, conversationId) } : undefined;
  // Agent processes a killed daemon left running (tools and all) go before anything starts new ones.
  const ledger = new SqliteAgentProcessLedger(db);
  await reapOrphans(ledger, logger);
  // At most COFFER_MAX_WARM_AGENTS warm agent processes, least recently used evicted first.
  const warmPool = new WarmPool(maxWarmAgents(env.COFFER_MAX_WARM_AGENTS), clock);
  // The gateway's MCP server SDK loads on its first request; agents load it — and rehearse one
  // handshake through the endpoint (gatewayRehearsal) — ahead of a first turn.
  let rehearseGateway: () => Promise<void> = () => mcpServerSdk().then(() => undefined);
  const warmGateway = (): void => void rehearseGateway().catch(() => undefined);
  const sessionCopies = new FileSessionCopies(join(home, "agent-sessions"), (text) => scrubber.scrub(text));
  const defaults = managedAgentProviders({
    workspaceDir: options.workspace,
    env,
    logger,
    gateway: gatewayFor,
    warm: warmPool,
    ledger,
    adoptGateway: (agentKey, standIn, conversationId) => gatewayCredentials.adopt(agentKey, standIn, conversationId),
    warmGateway,
    // The agents' session files, kept so a conversation the CLI forgot can still be resumed (issue 24).
    sessionCopies,
  });
  const registry = new AgentRegistry(options.providers ? options.providers(defaults) : defaults);
  const hub = new BusHub();
  // Files sent with messages: bytes content-addressed under <data dir>/attachments, rows in SQLite (issue 25).
  const attachmentStore = new SqliteAttachmentStore(db);
  const attachments = new AttachmentService({
    tx: chat.tx,
    store: attachmentStore,
    blobs: new FileAttachmentBlobs(join(home, "attachments")),
    // The agents read copies outside the private store and the owner's working directory (derived: not backed up).
    copies: new FileAgentFileCopies(join(home, "agent-files")),
    fitter: new SharpImageFitter(),
    clock,
    ids,
    maxBytes: options.attachmentMaxBytes,
  });
  const listEvents = new ConversationListEvents();
  // Which events alert the owner (Settings → Alerts), and the fan-out to the page and the phone.
  const alertSettings = new AlertSettings(new SqliteSettingsStore(db), audit, clock);
  const questionSettings = new QuestionSettings({ store: new SqliteSettingsStore(db), audit, clock });
  // Open questions escalate on the alarm clock: the page at once, the phone and a reminder later.
  const alerts = new OwnerAlerts(alertSettings, listEvents, logger, { alarms, settings: questionSettings, ledger: new OpenQuestionLedger(new SqliteSettingsStore(db), () => clock.now()) });
  const holdStore = new SqliteHoldStore(db);
  const contextUsage = new SqliteContextStore(db);
  // The LLM connections are composed after the turns (compose-settings.ts): bound once they are.
  let condenseHistory: HistoryCondenser | undefined;
  const condense: HistoryCondenser = (text, signal) => condenseHistory?.(text, signal) ?? Promise.resolve(null);
  // The channel platforms are composed after the chat: a thread's words are looked up when a conversation is shown.
  let channelPlatforms: ChannelPlatforms | undefined;
  const threadNouns: ThreadNouns = (kind) => {
    const platform = channelPlatforms?.get(kind);
    if (!platform) return undefined;
    const words = platform.threadWords ?? TOPIC_WORDS;
    return { thread: words.thread, place: words.place };
  };
  const turns = buildTurnRooms({
    ...chat,
    registry,
    hub,
    listEvents,
    threadNouns,
    clock,
    ids,
    logger,
    timings: options.timings,
    queueMax: options.queueMax,
    editLeaseMs: options.editLeaseMs,
    holdStore,
    alerts,
    contextUsage,
    scrubber,
    condense,
    attachmentPath: (conversationId, id) => attachments.agentPath(conversationId, id),
    imageForModel: (_conversationId, _id, path, mediaType) => attachments.imageForModel(path, mediaType),
    // A file the agent shares (coffer__share_file) is kept on the reply being written.
    linkSharedFile: (messageId, attachmentId, caption) => attachmentStore.appendToMessage(messageId, attachmentId, caption),
    alarms,
  });
  const recovered = turns.lifecycle.recover();
  if (recovered.interrupted.length || recovered.paused.length) {
    logger.info("recovered after restart", { failedMessages: recovered.interrupted.length, pausedQueues: recovered.paused.length });
  }
  const views = new ConversationViews({ store: chat.conversations, turns: turns.lifecycle, listEvents, threadNouns });
  const conversations = new ConversationService({ tx: chat.tx, store: chat.conversations, audit, registry, turns: turns.lifecycle, hub, listEvents, clock, ids, logger, views, attachments });
  const conversationSettings = new ConversationSettings({ store: chat.conversations, views });
  const thread = new ConversationThread({ messages: chat.messages, views });

  // The vault's contents: skill folders on disk, memory and knowledge in SQLite.
  const vault: VaultServices = {
    skills: new SkillService(new SkillFolderLibrary(join(home, "skills")), audit, clock),
    memory: new MemoryService({ store: new SqliteMemoryStore(db), clock, ids, audit }),
    knowledge: knowledgeServices({ store: new SqliteKnowledgeStore(db), source: new FileDocumentSource(), uploads: (files) => new UploadedDocumentSource(files), clock, ids, logger, audit }),
  };
  // The gateway exists by the time the retention worker first runs (after listen).
  const pruneAudit = sqliteAuditPruner(db);
  const pruneLogs = () => gateway.pruneLog() + (options.auditMaxAgeMs === null ? 0 : pruneAudit(clock.now() - options.auditMaxAgeMs));
  const settings = composeSettings({ db, home, env, config: options, audit, conversations, turns: turns.lifecycle, clock, ids, logger, scrubber, pruneLogs, sweepUnsent: () => {
    // With each retention pass: agent-file folders whose conversation is gone (a crash between delete and cleanup).
    attachments.sweepOrphanCopies((id) => chat.conversations.getConversation(id) !== null);
    return attachments.sweepUnsent();
  } });
  const backups = composeBackups({ db, home, config: options, version: VERSION, key: () => settings.backupKey(), clock, logger, firstDelayMs: options.backupFirstDelayMs });
  condenseHistory = settings.condenseHistory;

  // The MCP gateway: Coffer's builtin tools plus the owner's upstream servers, served at /mcp.
  const mcpStore = new SqliteMcpStore(db);
  const builtinTools = new BuiltinToolRegistry();
  // Credential refs in a server's env or headers are resolved at launch, in memory only.
  const secrets = { resolve: async (ref: string) => settings.credentials.resolve(ref) };
  const scrub = (text: string) => scrubber.scrub(text);
  const pool = new UpstreamPool({ secrets, scrub, logger, clientVersion: VERSION, backoff: options.mcpBackoff ?? DEFAULT_BACKOFF });
  const upstreams = scrubbedUpstreams(pool, scrubber);
  const gateway = new ToolGateway({
    builtins: builtinTools,
    upstreams,
    store: mcpStore,
    clock,
    logger,
    scrub,
    logLimits: options.mcpLog,
    // Every logged call goes out on the list stream: the page's Tool calls log shows it live.
    onLogged: (invocation) => listEvents.emit({ type: "tool_call_logged", invocation: invocationOut(invocation) }),
  });
  builtinTools.register(searchToolsTool(() => gateway.upstreamTools()));
  registerVaultTools(builtinTools, vault);
  settings.registerTools(builtinTools);
  registerShareFile(builtinTools, { home, workspace: options.workspace, conversations: chat.conversations, attachments, files: turns.files, audit, clock });
  options.extraBuiltinTools?.(builtinTools);
  const mcpServers = new McpServerService({ store: mcpStore, upstreams, gateway, clock, audit });
  mcpServers.startAll();

  // Voice: the connection the owner set in Settings → Connections (tests may pass their own source);
  // one service for the page's microphone and the phone's voice notes.
  const transcription = new TranscriptionService(options.transcriptionConnection ?? settings.transcription, new OpenAiTranscriber());
  // Before the channels: the phone's /schedules uses the same service as the API.
  const schedules = composeSchedules({ db, alarms, clock, ids, zone: options.timeZone, audit, logger, registry, conversations, conversationStore: chat.conversations, queue: turns.queue, reads: turns.reads });
  let daemonUrl = "";
  // IM channels: started after the server listens, so a phone message finds the gateway ready.
  const channels = composeChannels({
    db,
    config: options,
    timings: options.channelTimings,
    telegramRetry: options.telegramRetry,
    ...(options.discordIdentifySpacingMs !== undefined ? { discordIdentifySpacingMs: options.discordIdentifySpacingMs } : {}),
    chats: chat.conversations,
    pending: chat.pending,
    conversations,
    conversationSettings,
    turns,
    registry,
    credentials: settings.credentials,
    audit,
    principals,
    clock,
    ids,
    logger,
    transcription,
    // A file the agent shared goes to the phone from the store (gone with its conversation = not sent).
    sharedFilePath: (id) => (attachmentStore.getAttachment(id) ? attachments.open(id).path : null),
    attachments,
    alarms,
    schedules: schedules.service,
  });

  // The phone as an alert surface (linked to the page's URL once it listens); the brief writes to it too.
  channelPlatforms = channels.platforms;
  const phoneAlerts = channels.runtime.alertSink(() => options.publicUrl ?? daemonUrl);
  const brief = composeBrief({
    db,
    alarms,
    zone: options.timeZone,
    audit,
    logger,
    scheduler: schedules.scheduler,
    registry,
    conversations,
    conversationStore: chat.conversations,
    reads: turns.reads,
    questions: turns.questions,
    phone: (text) => phoneAlerts.toOwners(text),
    page: (event) => listEvents.emit(event),
  });

  // Sessions and login codes live here only: they die with this process (docs/decisions.md, "Daemon proof").
  const handoff = loginHandoffFiles(home, () => daemonUrl);
  handoff.sweep();
  const auth = new DaemonAuth(token, clock, { sessionIdleMs: options.sessionIdleMs }, {
    audit: (action, details) => audit("user", action, details, clock.now()),
    handoff,
  });
  const gatewayEndpoint = createGatewayEndpoint(gateway, VERSION);
  rehearseGateway = gatewayRehearsal(gatewayEndpoint);
  const app = createHttpApp({
    token,
    auth,
    principals,
    proofPort: options.proofPort,
    version: VERSION,
    startedAt: Date.now(),
    registry,
    workspace: options.workspace,
    agentModels: new AgentModelCatalog({ registry, store: chat.messages, clock, logger }),
    conversations,
    conversationSettings,
    thread,
    attachments,
    transcription,
    transcriptionSettings: settings.transcription,
    turns,
    listEvents,
    logger,
    heartbeatMs: options.heartbeatMs,
    webRoot: options.webRoot === undefined ? defaultWebRoot() : options.webRoot,
    openCommand: `${options.cliCommand} open`,
    audit: new SqliteAuditReader(db),
    vault,
    mcp: { servers: mcpServers, invocations: new McpInvocations(mcpStore), endpoint: gatewayEndpoint, credentials: gatewayCredentials },
    settings: { ...settings.http, alerts: alertSettings, questions: questionSettings, backups },
    channels: channels.service,
    schedules: schedules.service,
    brief,
    scrubber,
    footprint: {
      stats: new SystemStats({
        pool: warmPool,
        registry,
        hub,
        turnsRunning: () => turns.lifecycle.runningCount,
        memory: procProcessMemory,
        database: databaseFiles(join(home, "coffer.db")),
        self: selfFootprint,
        attachments: () => attachments.totals(),
      }),
      prewarm: new PrewarmService({ registry, store: chat.conversations, clock }),
    },
  });

  const server = await listenTcp(app.fetch, options.port, options.maxConnections);
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  daemonUrl = url;
  // The CLI's own door: a 0600 socket in the data dir, beside TCP (docs/decisions.md, "Hardening II").
  const socket = await listenSocket(app.fetch, home, options.maxConnections);
  if (!socket) logger.warn("no Unix socket for the CLI (daemon.sock is taken by something else); the CLI uses TCP", { home });
  gatewayUrl = `${url}/mcp`;
  writeDaemonInfo(home, { pid: process.pid, port, url });
  logger.info("daemon listening", { url, home });
  settings.retention.start(options.retentionIntervalMs);
  backups.start();
  // Plan-limit holds from before the restart: re-armed, or lifted (and their queue run) when the
  // reset passed — on a timer, so after the channels below have started and can relay it.
  const holds = turns.parking.rearm();
  if (holds) logger.info("plan-limit holds re-armed", { holds });
  // A phone whose reply was cut off by the restart hears so, instead of waiting forever.
  channels.runtime.startAll(recovered);
  alerts.addSink(phoneAlerts);
  // Questions the last run left open ended with their turns: the owner hears of each once.
  const lost = alerts.reportLost((id) => chat.conversations.getConversation(id));
  if (lost) logger.info("questions lost to the restart reported", { lost });
  // Schedules re-armed from the store; a due time missed while down runs once now, and says so.
  schedules.scheduler.start();
  // Messages sent later: one that came due while down is sent now, once, in its queue's order; the rest re-armed.
  turns.later.start();
  // The morning brief on the same alarm; one due while down is sent once now, saying so.
  brief.start();

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      server.close();
      socket?.server.close();
      if (socket) removeSocket(socket.path);
      auth.clear();
      brief.stop();
      // From here a question closing is lost to the stop, not answered: the next start says so.
      alerts.stop();
      schedules.scheduler.stop();
      await settings.retention.stop();
      await backups.stop();
      await channels.runtime.close();
      await shutdownTurns(turns);
      await registry.closeAll();
      await sessionCopies.close();
      await upstreams.close();
      server.closeAllConnections();
      socket?.server.closeAllConnections();
      db.close();
      removeDaemonInfo(home, process.pid);
      lock.release();
      logger.info("daemon stopped");
    })());

  return { url, port, token, home, turns, hub, listEvents, builtinTools, retention: settings.retention, backups, close };
}

function defaultWebRoot(): string | null {
  const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "web", "dist");
  return existsSync(join(dist, "index.html")) ? dist : null;
}

function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

import { historyCondenser } from "./application/agent-sessions/history-condenser.js";
import type { HistoryCondenser } from "./application/agent-sessions/session-seed.js";
import { askTool } from "./application/ask/ask-tool.js";
import { ConnectionService } from "./application/connections/connection-service.js";
import { ModelIntrospection } from "./application/connections/model-introspection.js";
import type { ConversationService } from "./application/conversations.js";
import { CredentialService } from "./application/credentials/credential-service.js";
import type { AuditSink, CredentialResolver, CredentialStore } from "./application/credentials/ports.js";
import type { SecretScrubber } from "./application/secrets/secret-scrubber.js";
import { learnStoredCredentials, learningResolver } from "./application/secrets/scrubbing.js";
import type { Clock, IdGenerator, Logger } from "./application/ports.js";
import { TranscriptionSettings } from "./application/transcription/transcription-settings.js";
import { RetentionSettings } from "./application/retention/retention-settings.js";
import { RetentionWorker } from "./application/retention/retention-worker.js";
import type { TurnLifecycle } from "./application/turns/turn-lifecycle.js";
import type { BuiltinToolRegistry } from "./application/gateway/builtin-tools.js";
import type { DaemonConfig } from "./config.js";
import type { SettingsHttp } from "./http/deps.js";
import { EncryptedCredentials } from "./infrastructure/credentials/encrypted-credentials.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { keyText } from "./infrastructure/credentials/key-check.js";
import { chooseMasterKeySource, CREDENTIAL_KEY_FILE, KEYRING_MARKER_FILE } from "./infrastructure/credentials/master-key-source.js";
import { LlmClients } from "./infrastructure/llm/llm-clients.js";
import { SqliteConnectionStore } from "./infrastructure/sqlite/stores/sqlite-connection-store.js";
import { SqliteCredentialRows } from "./infrastructure/sqlite/stores/sqlite-credential-rows.js";
import type { Db } from "./infrastructure/sqlite/database.js";
import { SqliteRetentionQueries } from "./infrastructure/sqlite/stores/sqlite-retention-queries.js";
import { SqliteSettingsStore } from "./infrastructure/sqlite/stores/sqlite-settings-store.js";

export interface SettingsGraphDeps {
  readonly db: Db;
  readonly home: string;
  /** The daemon's environment: whether an OS keyring can hold the credentials key. */
  readonly env: NodeJS.ProcessEnv;
  readonly config: Pick<DaemonConfig, "llmTimeoutMs" | "askMaxSteps" | "keyring">;
  readonly audit: AuditSink;
  readonly conversations: ConversationService;
  readonly turns: Pick<TurnLifecycle, "isRunning">;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Learns every secret as it is set or resolved (docs/decisions.md, "Secrets and audit"). */
  readonly scrubber: SecretScrubber;
  /** Called on every retention pass (the MCP invocation log's bounds). */
  readonly pruneLogs?: () => number;
  /** Called on every retention pass: uploads never sent with a message, past their grace period. */
  readonly sweepUnsent?: () => number;
}

export interface SettingsGraph {
  readonly http: Omit<SettingsHttp, "alerts" | "questions" | "backups">;
  /** Ref → secret, in memory; for anything else that holds refs (MCP server env, headers). */
  readonly credentials: CredentialResolver;
  readonly retention: RetentionWorker;
  /** The transcription connection (voice); its key sealed beside the other credentials. */
  readonly transcription: TranscriptionSettings;
  /**
   * The credentials key for a backup, as credentials.key stores it (from the file or the OS
   * keyring); null while the data dir has none — a backup never makes one.
   */
  backupKey(): { readonly text: string; readonly id: string } | null;
  /** Registers `ask` (coffer__ask) on the gateway's builtin tools. */
  registerTools(tools: BuiltinToolRegistry): void;
  /** Condenses a lost agent session's older messages on the internal-default connection (the one coffer__ask uses). */
  readonly condenseHistory: HistoryCondenser;
}

/** Part of the composition root: credentials, LLM connections, coffer__ask and retention. */
export function composeSettings(d: SettingsGraphDeps): SettingsGraph {
  const audit = d.audit;
  // The key is in the OS keyring where one exists, else a 0600 file (master-key-source.ts says which, and why).
  const masterKey = chooseMasterKeySource({ dataDir: d.home, env: d.env, keyring: d.config.keyring, logger: d.logger });
  const encrypted = new EncryptedCredentials(new SqliteCredentialRows(d.db), masterKey);
  // Every reader of a secret goes through this view, so the scrubber knows each value in use.
  const learning = learningResolver(encrypted, d.scrubber);
  learnStoredCredentials(encrypted, learning, d.logger);
  const credentialStore: CredentialStore & CredentialResolver = {
    put: (ref, secret, now) => encrypted.put(ref, secret, now),
    list: () => encrypted.list(),
    has: (ref) => encrypted.has(ref),
    remove: (ref) => encrypted.remove(ref),
    resolve: (ref) => learning.resolve(ref),
  };
  const llm = new LlmClients(d.config.llmTimeoutMs);
  const connections = new ConnectionService({ store: new SqliteConnectionStore(d.db), providers: llm, credentials: credentialStore, audit, clock: d.clock, ids: d.ids });
  const retentionSettings = new RetentionSettings(new SqliteSettingsStore(d.db), audit, d.clock);
  const retention = new RetentionWorker({
    settings: retentionSettings,
    candidates: new SqliteRetentionQueries(d.db),
    conversations: d.conversations,
    isRunning: (id) => d.turns.isRunning(id),
    audit,
    clock: d.clock,
    logger: d.logger,
    pruneLogs: d.pruneLogs,
    sweepUnsent: d.sweepUnsent,
  });
  return {
    http: {
      credentials: new CredentialService({ store: credentialStore, audit, clock: d.clock, scrubber: d.scrubber }),
      connections,
      models: new ModelIntrospection({ providers: llm, credentials: credentialStore, clock: d.clock, logger: d.logger }),
      retention: retentionSettings,
    },
    credentials: credentialStore,
    retention,
    transcription: new TranscriptionSettings({ store: new SqliteSettingsStore(d.db), credentials: credentialStore, audit, clock: d.clock }),
    backupKey() {
      if (!existsSync(join(d.home, CREDENTIAL_KEY_FILE)) && !existsSync(join(d.home, KEYRING_MARKER_FILE))) return null;
      const key = masterKey.get();
      return { text: keyText(key), id: key.id };
    },
    condenseHistory: historyCondenser({
      internalDefault: () => connections.internalDefault(),
      providers: llm,
      credentials: credentialStore,
      loop: llm,
      logger: d.logger,
    }),
    registerTools(tools) {
      tools.register(
        askTool({
          tools,
          internalDefault: () => connections.internalDefault(),
          providers: llm,
          credentials: credentialStore,
          loop: llm,
          maxSteps: d.config.askMaxSteps,
          logger: d.logger,
        }),
      );
    },
  };
}

import type { AgentModelCatalog } from "../application/agent-models.js";
import type { HttpBindings } from "@hono/node-server";
import type { AgentRegistry } from "../application/agent-registry.js";
import type { ConversationService } from "../application/conversations.js";
import type { ConversationSettings } from "../application/conversation-settings.js";
import type { ConversationThread } from "../application/conversation-thread.js";
import type { AttachmentService } from "../application/attachments/attachment-service.js";
import type { TranscriptionService } from "../application/transcription/transcription-service.js";
import type { TranscriptionSettings } from "../application/transcription/transcription-settings.js";
import type { DaemonAuth } from "../application/auth/daemon-auth.js";
import type { Principal, PrincipalScope } from "../application/auth/principal.js";
import type { AuditReader } from "../application/audit-log.js";
import type { Logger } from "../application/ports.js";
import type { ConversationListEvents } from "../application/turns/list-events.js";
import type { TurnRooms } from "../application/turns/turn-rooms.js";
import type { VaultServices } from "../application/vault/vault-tools.js";
import type { ConnectionService } from "../application/connections/connection-service.js";
import type { ModelIntrospection } from "../application/connections/model-introspection.js";
import type { CredentialService } from "../application/credentials/credential-service.js";
import type { RetentionSettings } from "../application/retention/retention-settings.js";
import type { AlertSettings } from "../application/alerts/alert-settings.js";
import type { QuestionSettings } from "../application/alerts/question-settings.js";
import type { BackupService } from "../application/backup/backup-service.js";
import type { McpInvocations } from "../application/gateway/mcp-invocations.js";
import type { McpServerService } from "../application/gateway/mcp-servers.js";
import type { GatewayCredentials, GatewayPrincipal } from "../application/gateway/gateway-credentials.js";
import type { SecretScrubber } from "../application/secrets/secret-scrubber.js";
import type { ChannelService } from "../application/channels/channel-service.js";
import type { PrewarmService } from "../application/warm-pool/prewarm.js";
import type { SystemStats } from "../application/warm-pool/system-stats.js";
import type { MorningBrief } from "../application/schedules/morning-brief.js";
import type { ScheduleService } from "../application/schedules/schedule-service.js";

/** The MCP gateway, as the HTTP layer sees it: a use case and a plain request handler. */
export interface McpHttp {
  readonly servers: McpServerService;
  /** The gateway's tool-call log. */
  readonly invocations: McpInvocations;
  /** Serves `/mcp` (Streamable HTTP); built from the MCP SDK by the composition root. */
  readonly endpoint: (request: Request, principal: GatewayPrincipal) => Promise<Response>;
  /** Verifies the agents' gateway-only credentials (accepted on `/mcp` only). */
  readonly credentials: GatewayCredentials;
}

/** Settings: credentials, LLM connections, model introspection, retention, alerts, backups. */
export interface SettingsHttp {
  readonly credentials: CredentialService;
  readonly connections: ConnectionService;
  readonly models: ModelIntrospection;
  readonly retention: RetentionSettings;
  /** Which events alert the owner, per surface (Settings → Alerts). */
  readonly alerts: AlertSettings;
  /** When open questions reach the phone and are reminded (issue 27). */
  readonly questions: QuestionSettings;
  /** "Back up now" and the snapshot schedule (Settings → Data). */
  readonly backups: BackupService;
}

export interface HttpDeps {
  readonly token: string;
  /** The token, plus the sessions and login codes this process issued. */
  readonly auth: DaemonAuth;
  /** Carries each request's verified principal to the audit rows its work writes. */
  readonly principals: PrincipalScope;
  /** Test seam: the port the proof binds when a trusted relay fronts the daemon (default: the socket's). */
  readonly proofPort?: number;
  readonly version: string;
  readonly startedAt: number;
  readonly registry: AgentRegistry;
  /** The default workspace (COFFER_WORKSPACE), shown where the owner picks a conversation's folder. */
  readonly workspace?: string;
  /** The model field's suggestions per agent (the agent's own list, cached, and recent ones). */
  readonly agentModels: AgentModelCatalog;
  readonly conversations: ConversationService;
  /** A conversation's agent config (the model). */
  readonly conversationSettings: ConversationSettings;
  /** A conversation's messages, a page at a time. */
  readonly thread: ConversationThread;
  /** Files sent with messages (upload, download). */
  readonly attachments: AttachmentService;
  /** Voice to text through the transcription connection (off until one is set). */
  readonly transcription: TranscriptionService;
  /** The transcription connection (Settings → Connections → Voice transcription). */
  readonly transcriptionSettings: TranscriptionSettings;
  /** The turn rooms: each route calls the one it needs. */
  readonly turns: TurnRooms;
  readonly listEvents: ConversationListEvents;
  readonly logger: Logger;
  readonly heartbeatMs: number;
  /** Built web app to serve at `/`, or null when it has not been built. */
  readonly webRoot: string | null;
  /** The sign-in command as the owner types it where the daemon was started (hints and the page name it). */
  readonly openCommand: string;
  readonly audit: AuditReader;
  /** Skills, memory and knowledge (the gateway's coffer__ tools use the same services). */
  readonly vault: VaultServices;
  readonly mcp: McpHttp;
  readonly settings: SettingsHttp;
  /** IM channels (Telegram bots). */
  readonly channels: ChannelService;
  /** Recurring prompts. */
  readonly schedules: ScheduleService;
  /** The morning brief (GET|PUT /settings/brief, POST /settings/brief/send). */
  readonly brief: MorningBrief;
  /** Speed and footprint: the warm pool's stats and pre-warm on intent. */
  readonly footprint: { readonly stats: SystemStats; readonly prewarm: PrewarmService };
  /** Known credential values are scrubbed from every JSON body and error envelope the API sends. */
  readonly scrubber: SecretScrubber;
}

/** `principal`: who requireAuth verified this request is (absent on the routes that check their own). */
/**
 * `scrubbed`: the JSON answer was written once, already scrubbed (bind-route), so scrubResponses need not read it back.
 * `secured`: it was built with the strict headers, so secureHeaders need not set them again.
 */
export type Env = { Bindings: HttpBindings; Variables: { principal?: Principal; scrubbed?: true; secured?: true } };

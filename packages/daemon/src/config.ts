import { ATTACHMENT_CEILING_BYTES, ATTACHMENT_DEFAULT_MAX_BYTES } from "@coffer/protocol";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { DEFAULT_RETRY_GIVE_UP, type TurnTimings } from "./application/turns/active-turn.js";
import { DEFAULT_EDIT_LEASE_MS } from "./application/turns/edit-holds.js";
import { parseLogLevel, type LogLevel } from "./infrastructure/system/console-logger.js";

export const DEFAULT_PORT = 7431;

export interface DaemonConfig {
  readonly home: string;
  /**
   * Where a conversation without its own `cwd` runs its agent (COFFER_WORKSPACE, --workspace;
   * default `~/coffer-workspace`). Never inside the data dir: an agent's shell starts there.
   */
  readonly workspace: string;
  /** Whether a new credentials key may go to the OS keyring (COFFER_KEYRING: auto, off). */
  readonly keyring: KeyringMode;
  readonly port: number;
  readonly logLevel: LogLevel;
  /** Where JSON log lines go: a file (COFFER_LOG_FILE, default `<data dir>/daemon.log`), or null for stderr (`-`). */
  readonly logFile: string | null;
  /**
   * How the owner runs the CLI where this daemon was started, for every hint it prints
   * (COFFER_CLI_COMMAND: `coffer` when installed; `npm start` sets `npm run coffer --` in a clone).
   */
  readonly cliCommand: string;
  readonly timings: TurnTimings;
  readonly heartbeatMs: number;
  /** LLM provider calls (list-models, test-connection, each coffer__ask step) time out after this. */
  readonly llmTimeoutMs: number;
  /** coffer__ask's step bound (model calls per question). */
  readonly askMaxSteps: number;
  /** How often the retention worker runs after its pass at start (0 = only at start). */
  readonly retentionIntervalMs: number;
  /** The MCP invocation log keeps rows this long (null = no age bound) and at most this many. */
  readonly mcpLog: { readonly maxAgeMs: number | null; readonly maxRows: number };
  /** How long audit rows are kept (COFFER_AUDIT_MAX_AGE_DAYS); null = forever. */
  readonly auditMaxAgeMs: number | null;
  /** Messages one conversation's pending queue may hold. */
  readonly queueMax: number;
  /** The cap on one attached file, in bytes (COFFER_ATTACHMENT_MAX_MB, at most the upload route's ceiling). */
  readonly attachmentMaxBytes: number;
  /** How long an edit hold on a queued message lasts unless its editor renews it (COFFER_QUEUE_EDIT_LEASE_MS). */
  readonly editLeaseMs: number;
  /** Telegram channels: the Bot API root (tests point it at a fake) and the long-poll timeout. */
  readonly telegram: { readonly apiRoot: string; readonly pollTimeoutSeconds: number };
  /** Discord channels: the REST root (the gateway URL is what GET /gateway/bot on it answers; tests point it at a fake). */
  readonly discord: { readonly apiRoot: string };
  /** A page session unused this long ends (COFFER_SESSION_IDLE_MINUTES). */
  readonly sessionIdleMs: number;
  /** Open connections per listener (TCP, and the Unix socket) at most (COFFER_MAX_CONNECTIONS). */
  readonly maxConnections: number;
  /**
   * Scheduled snapshots: the folder (COFFER_BACKUP_DIR, default `<data dir>/backups`), how many
   * are kept (COFFER_BACKUP_KEEP, 7; 0 = never delete) and how often (COFFER_BACKUP_EVERY_HOURS,
   * 24; 0 = no schedule).
   */
  readonly backup: { readonly folder: string; readonly keep: number; readonly everyMs: number };
  /**
   * The owner's time zone (IANA name): "at 07:00", daily schedules and the morning brief are read
   * in it. COFFER_TIME_ZONE, default the machine's own.
   */
  readonly timeZone: string;
  /** The start reads a coffer.db up to this size whole (quick_check); a larger one only after an unclean stop (COFFER_START_CHECK_MAX_MB). */
  readonly startCheckMaxBytes: number;
  /** Where the owner reaches this daemon's page (links in phone alerts); absent = the daemon's own URL. */
  readonly publicUrl?: string;
}

export const DEFAULT_TELEGRAM_API_ROOT = "https://api.telegram.org";
export const DEFAULT_DISCORD_API_ROOT = "https://discord.com/api";

export interface DaemonFlags {
  readonly port?: string | number;
  readonly home?: string;
  readonly workspace?: string;
}

export type KeyringMode = "auto" | "off";

/** The owner's home as the daemon's environment names it (os.homedir() reads the same HOME). */
function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || homedir();
}

/** `~/x` as the owner means it, also when a quoted env value kept the tilde from the shell. */
function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  return path === "~" || path.startsWith("~/") ? userHome(env) + path.slice(1) : path;
}

function isInside(dir: string, parent: string): boolean {
  const rel = relative(parent, dir);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The default workspace sits outside the data dir; one configured inside it is refused. */
function resolveWorkspace(env: NodeJS.ProcessEnv, flag: string | undefined, home: string): string {
  const raw = flag ?? env.COFFER_WORKSPACE;
  const workspace = resolve(raw?.trim() ? expandHome(raw.trim(), env) : join(userHome(env), "coffer-workspace"));
  if (isInside(workspace, home)) {
    throw new Error(`the workspace (${workspace}) must be outside the data dir (${home}): agents' shells start there; set COFFER_WORKSPACE or --workspace`);
  }
  return workspace;
}

function keyringMode(raw: string | undefined): KeyringMode {
  const value = raw?.trim().toLowerCase() || "auto";
  if (value !== "auto" && value !== "off") throw new Error(`COFFER_KEYRING must be "auto" or "off", got "${raw}"`);
  return value;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** COFFER_ATTACHMENT_MAX_MB (default 50, 1 … 100: the upload route reads no more than its ceiling). */
function attachmentMaxBytes(raw: string | undefined): number {
  const mb = positiveInt("COFFER_ATTACHMENT_MAX_MB", raw, ATTACHMENT_DEFAULT_MAX_BYTES / 1024 / 1024);
  if (mb < 1 || mb * 1024 * 1024 > ATTACHMENT_CEILING_BYTES) throw new Error(`COFFER_ATTACHMENT_MAX_MB must be between 1 and ${ATTACHMENT_CEILING_BYTES / 1024 / 1024}, got "${raw}"`);
  return mb * 1024 * 1024;
}

/**
 * Flags beat environment, environment beats defaults. Every knob is documented in the
 * README's "Configuration" table.
 */
export function resolveDaemonConfig(env: NodeJS.ProcessEnv, flags: DaemonFlags = {}): DaemonConfig {
  const port = positiveInt("port", flags.port === undefined ? env.COFFER_PORT : String(flags.port), DEFAULT_PORT);
  if (port > 65535) throw new Error(`port must be 0..65535, got ${port}`);
  const home = resolve(flags.home ?? env.COFFER_HOME ?? join(userHome(env), ".coffer"));
  return {
    home,
    workspace: resolveWorkspace(env, flags.workspace, home),
    keyring: keyringMode(env.COFFER_KEYRING),
    port,
    logLevel: parseLogLevel(env.COFFER_LOG_LEVEL),
    logFile: env.COFFER_LOG_FILE === "-" ? null : resolve(home, env.COFFER_LOG_FILE || "daemon.log"),
    cliCommand: env.COFFER_CLI_COMMAND?.trim() || "coffer",
    timings: {
      flushIntervalMs: positiveInt("COFFER_FLUSH_INTERVAL_MS", env.COFFER_FLUSH_INTERVAL_MS, 500) || 500,
      watchdogMs: positiveInt("COFFER_TURN_IDLE_TIMEOUT_SECONDS", env.COFFER_TURN_IDLE_TIMEOUT_SECONDS, 600) * 1000 || 600_000,
      stopDeadlineMs: positiveInt("COFFER_STOP_DEADLINE_MS", env.COFFER_STOP_DEADLINE_MS, 5000),
      retryGiveUp: positiveInt("COFFER_TURN_RETRY_GIVE_UP", env.COFFER_TURN_RETRY_GIVE_UP, DEFAULT_RETRY_GIVE_UP),
    },
    heartbeatMs: positiveInt("COFFER_SSE_HEARTBEAT_MS", env.COFFER_SSE_HEARTBEAT_MS, 15_000) || 15_000,
    llmTimeoutMs: positiveInt("COFFER_LLM_TIMEOUT_MS", env.COFFER_LLM_TIMEOUT_MS, 15_000) || 15_000,
    askMaxSteps: positiveInt("COFFER_ASK_MAX_STEPS", env.COFFER_ASK_MAX_STEPS, 8) || 8,
    retentionIntervalMs: positiveInt("COFFER_RETENTION_INTERVAL_SECONDS", env.COFFER_RETENTION_INTERVAL_SECONDS, 3600) * 1000,
    mcpLog: {
      maxAgeMs: positiveInt("COFFER_MCP_LOG_MAX_AGE_DAYS", env.COFFER_MCP_LOG_MAX_AGE_DAYS, 30) * 86_400_000 || null,
      maxRows: positiveInt("COFFER_MCP_LOG_MAX_ROWS", env.COFFER_MCP_LOG_MAX_ROWS, 100_000) || 100_000,
    },
    auditMaxAgeMs: positiveInt("COFFER_AUDIT_MAX_AGE_DAYS", env.COFFER_AUDIT_MAX_AGE_DAYS, 365) * 86_400_000 || null,
    queueMax: positiveInt("COFFER_QUEUE_MAX", env.COFFER_QUEUE_MAX, 100) || 100,
    attachmentMaxBytes: attachmentMaxBytes(env.COFFER_ATTACHMENT_MAX_MB),
    editLeaseMs: positiveInt("COFFER_QUEUE_EDIT_LEASE_MS", env.COFFER_QUEUE_EDIT_LEASE_MS, DEFAULT_EDIT_LEASE_MS) || DEFAULT_EDIT_LEASE_MS,
    sessionIdleMs: (positiveInt("COFFER_SESSION_IDLE_MINUTES", env.COFFER_SESSION_IDLE_MINUTES, 480) || 480) * 60_000,
    maxConnections: positiveInt("COFFER_MAX_CONNECTIONS", env.COFFER_MAX_CONNECTIONS, 256) || 256,
    telegram: {
      apiRoot: telegramApiRoot(env.COFFER_TELEGRAM_API_ROOT),
      // Telegram holds a poll at most 50 s; 0 would be short polling (a request per update).
      pollTimeoutSeconds: Math.min(50, positiveInt("COFFER_TELEGRAM_POLL_TIMEOUT_SECONDS", env.COFFER_TELEGRAM_POLL_TIMEOUT_SECONDS, 50) || 50),
    },
    discord: { apiRoot: env.COFFER_DISCORD_API_ROOT ? httpUrl("COFFER_DISCORD_API_ROOT", env.COFFER_DISCORD_API_ROOT) : DEFAULT_DISCORD_API_ROOT },
    timeZone: timeZone(env.COFFER_TIME_ZONE),
    startCheckMaxBytes: positiveInt("COFFER_START_CHECK_MAX_MB", env.COFFER_START_CHECK_MAX_MB, 32) * 1024 * 1024,
    backup: {
      folder: env.COFFER_BACKUP_DIR?.trim() ? resolve(home, expandHome(env.COFFER_BACKUP_DIR.trim(), env)) : join(home, "backups"),
      keep: positiveInt("COFFER_BACKUP_KEEP", env.COFFER_BACKUP_KEEP, 7),
      everyMs: positiveInt("COFFER_BACKUP_EVERY_HOURS", env.COFFER_BACKUP_EVERY_HOURS, 24) * 3_600_000,
    },
    ...(env.COFFER_PUBLIC_URL ? { publicUrl: httpUrl("COFFER_PUBLIC_URL", env.COFFER_PUBLIC_URL) } : {}),
  };
}

/** COFFER_TIME_ZONE: an IANA zone name Intl knows (e.g. Europe/Berlin); unset = the machine's zone. */
function timeZone(raw: string | undefined): string {
  const name = raw?.trim();
  if (!name) return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw new Error(`COFFER_TIME_ZONE must be an IANA time zone name such as Europe/Berlin or America/New_York, got "${raw}"`);
  }
}

/** An http(s) base URL, without a trailing slash (links are joined to it). */
function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, "");
}

function telegramApiRoot(raw: string | undefined): string {
  if (raw === undefined || raw === "") return DEFAULT_TELEGRAM_API_ROOT;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`COFFER_TELEGRAM_API_ROOT must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`COFFER_TELEGRAM_API_ROOT must be an http(s) URL, got "${raw}"`);
  // grammY refuses a root with a trailing slash.
  return raw.replace(/\/+$/, "");
}

import type { ChannelKind } from "@coffer/protocol";
import type { ChannelRecord, OutboxRow, OutgoingFile, OutgoingMessage } from "../../../application/channels/ports.js";

export interface ChannelRow {
  id: string;
  kind: ChannelKind;
  name: string;
  /** JSON: credential name → credential ref. */
  credential_refs: string;
  default_agent: string;
  default_cwd: string | null;
  default_model: string | null;
  enabled: number;
  bot_id: string | null;
  bot_username: string | null;
  bot_name: string | null;
  owner_chat_id: string | null;
  owner_user_id: string | null;
  owner_name: string | null;
  paired_at: number | null;
  cursor: string | null;
  messages_in: number;
  messages_out: number;
  strangers_ignored: number;
  created_at: number;
  updated_at: number;
}

export const CHANNEL_COLS =
  "id, kind, name, credential_refs, default_agent, default_cwd, default_model, enabled, bot_id, bot_username, bot_name, " +
  "owner_chat_id, owner_user_id, owner_name, paired_at, cursor, messages_in, messages_out, strangers_ignored, created_at, updated_at";

export function toChannelRecord(r: ChannelRow): ChannelRecord {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    defaultAgent: r.default_agent,
    defaultCwd: r.default_cwd,
    defaultModel: r.default_model,
    enabled: r.enabled === 1,
    bot: r.bot_id === null ? null : { id: r.bot_id, username: r.bot_username ?? "", name: r.bot_name ?? "" },
    owner:
      r.owner_chat_id === null
        ? null
        : { chatId: r.owner_chat_id, userId: r.owner_user_id ?? "", name: r.owner_name ?? "", pairedAt: r.paired_at ?? 0 },
    cursor: r.cursor,
    credentialRefs: parseRefs(r.credential_refs),
    messagesIn: r.messages_in,
    messagesOut: r.messages_out,
    strangersIgnored: r.strangers_ignored,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface OutboxDbRow {
  id: number;
  channel_id: string;
  chat_id: string;
  thread_id: string | null;
  text: string;
  html: string | null;
  silent: number;
  buttons: string | null;
  file: string | null;
  attempts: number;
}

export const OUTBOX_COLS = "id, channel_id, chat_id, thread_id, text, html, silent, buttons, file, attempts";

export function toOutboxRow(r: OutboxDbRow): OutboxRow {
  // Optional fields stay absent rather than null/false: the row reads back as the message enqueued.
  const message: OutgoingMessage = {
    text: r.text,
    ...(r.html !== null ? { html: r.html } : {}),
    ...(r.silent === 1 ? { silent: true } : {}),
    ...(r.buttons !== null ? { buttons: parseButtons(r.buttons) } : {}),
    ...(r.file !== null ? parseFile(r.file) : {}),
  };
  return { id: r.id, channelId: r.channel_id, chatId: r.chat_id, threadId: r.thread_id, message, attempts: r.attempts };
}

/** A stored file read back; a damaged value is a line saying so rather than an empty message. */
function parseFile(raw: string): { file: OutgoingFile } | { text: string } {
  try {
    return { file: JSON.parse(raw) as OutgoingFile };
  } catch {
    return { text: "A file the agent shared could not be sent (its outbox row is damaged); open the reply on the page." };
  }
}

/** Stored buttons read back; a damaged value sends the message without them rather than not at all. */
function parseButtons(raw: string): OutgoingMessage["buttons"] {
  try {
    const rows = JSON.parse(raw) as unknown;
    if (!Array.isArray(rows)) return [];
    return rows.filter(Array.isArray).map((row: unknown[]) =>
      row.flatMap((b) => {
        const { text, data } = (b ?? {}) as { text?: unknown; data?: unknown };
        return typeof text === "string" && typeof data === "string" ? [{ text, data }] : [];
      }),
    );
  } catch {
    return [];
  }
}

/** The stored map read back; only string entries count (a damaged value reads as no credentials). */
function parseRefs(raw: string): Readonly<Record<string, string>> {
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

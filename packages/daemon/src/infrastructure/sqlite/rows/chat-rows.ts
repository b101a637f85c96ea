import type { ContentBlock, MessageOut, TurnFailureCode } from "@coffer/protocol";
import { parseStoredAgentConfig } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";

export interface ConversationRow {
  rowid: number;
  id: string;
  agent_key: string;
  title: string;
  title_set_by_owner: number;
  model_id: string | null;
  agent_config: string;
  channel_name: string | null;
  peer_chat_id: string | null;
  peer_thread_id: string | null;
  channel_id: string | null;
  queue_paused: number;
  created_at: number;
  updated_at: number;
  archived_at: number | null;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  seq: number;
  role: "user" | "assistant";
  content: string;
  status: "complete" | "streaming" | "failed";
  model_id: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  stop_reason: string | null;
  /** Only typed writes fill it: MessageFinal.error and failStreamingMessages' bound code. */
  error_code: TurnFailureCode | null;
  error_message: string | null;
  /** 1 when the text is a recording's transcript (MessageOut.voice). */
  voice: number;
  /** JSON {id, name} of the schedule that sent it (MessageOut.schedule), or null. */
  schedule: string | null;
  created_at: number;
}

export function toConversation(r: ConversationRow): Conversation {
  return {
    id: r.id,
    agentKey: r.agent_key,
    title: r.title,
    titleSetByOwner: r.title_set_by_owner === 1,
    modelId: r.model_id,
    agentConfig: parseStoredAgentConfig(r.agent_config),
    channel: r.channel_name ? { channel: r.channel_name, chatId: r.peer_chat_id ?? "", channelId: r.channel_id, ...(r.peer_thread_id ? { threadId: r.peer_thread_id } : {}) } : null,
    queuePaused: r.queue_paused === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
  };
}

/**
 * A user row's stop_reason column holds this for a message steered into a running turn (a
 * user message never has a stop reason of its own, so no new column: docs/decisions.md,
 * "Steering keeps one tool card"). On the wire it is `steered: true`, stop_reason null.
 */
export const STEERED_USER_MARK = "steered";

export function toMessageOut(r: MessageRow): MessageOut {
  const steered = r.role === "user" && r.stop_reason === STEERED_USER_MARK;
  return {
    id: r.id,
    conversation_id: r.conversation_id,
    seq: r.seq,
    role: r.role,
    content: parseContent(r.content),
    status: r.status,
    model_id: r.model_id,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
    stop_reason: r.role === "user" ? null : r.stop_reason,
    error: r.error_code ? { code: r.error_code, message: r.error_message ?? "" } : null,
    ...(steered ? { steered: true as const } : {}),
    ...(r.voice === 1 ? { voice: true as const } : {}),
    ...withSchedule(r.schedule),
    created_at: new Date(r.created_at).toISOString(),
  };
}

function withSchedule(raw: string | null): { schedule?: { id: string; name: string } } {
  const schedule = parseScheduleRef(raw);
  return schedule ? { schedule } : {};
}

/** The `schedule` column (messages, pending_messages): JSON {id, name}, or null when typed. */
export function parseScheduleRef(raw: string | null): { id: string; name: string } | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { id?: unknown; name?: unknown };
    return typeof v.id === "string" && typeof v.name === "string" ? { id: v.id, name: v.name } : null;
  } catch {
    return null;
  }
}

export function parseContent(raw: string): ContentBlock[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? (value as ContentBlock[]) : [];
  } catch {
    return [];
  }
}

/** The searchable text of some content: its text blocks, one per line. */
export function searchableText(content: readonly ContentBlock[]): string {
  let out = "";
  for (const b of content) if (b.type === "text" && b.text) out += (out ? "\n" : "") + b.text;
  return out;
}

/**
 * Owner input → FTS5 terms, one per word, each a quoted prefix: typing "deplo" finds
 * "deploy", and quotes keep FTS5 operators in the input inert.
 */
export function toFtsWords(q: string): string[] | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}_]+/gu);
  if (!words?.length) return null;
  return [...new Set(words)].slice(0, 8).map((w) => `"${w}"*`);
}

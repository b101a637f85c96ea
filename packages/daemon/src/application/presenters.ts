import { PENDING_PREVIEW_CHARS, type ConversationOut, type LaterMark, type PendingItem, type PendingPreview } from "@coffer/protocol";
import { stringField } from "../domain/agent-config.js";
import type { Conversation } from "../domain/conversation.js";
import type { LaterRef, PendingPreviewRow, PendingRow } from "./ports.js";

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

type IsoTimes<T> = Omit<T, "created_at" | "updated_at"> & { created_at: string; updated_at: string };

/**
 * A stored record as the wire shows it: its epoch-ms `created_at`/`updated_at` as ISO strings,
 * every other field as it is (docs/decisions.md, "Each record mapped once").
 */
export function withIsoTimes<T extends { readonly created_at: number; readonly updated_at: number }>(record: T): IsoTimes<T> {
  return { ...record, created_at: iso(record.created_at), updated_at: iso(record.updated_at) };
}

/** What a platform calls a thread and the place it hangs in ("topic"/"group", "thread"/"channel"); undefined for an unknown kind. */
export type ThreadNouns = (kind: string) => { readonly thread: string; readonly place: string } | undefined;

export function toConversationOut(c: Conversation, running: boolean, nouns?: ThreadNouns): ConversationOut {
  const words = c.channel?.threadId ? nouns?.(c.channel.channel) : undefined;
  return {
    id: c.id,
    agent_key: c.agentKey,
    title: c.title,
    model_id: c.modelId,
    agent_model: stringField(c.agentConfig, "model") ?? null,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    archived_at: c.archivedAt === null ? null : iso(c.archivedAt),
    channel_binding: c.channel
      ? {
          channel: c.channel.channel,
          chat_id: c.channel.chatId,
          channel_id: c.channel.channelId,
          ...(c.channel.threadId ? { thread_id: c.channel.threadId } : {}),
          ...(words ? { thread_noun: words.thread, place_noun: words.place } : {}),
        }
      : null,
    running,
  };
}

export function toPendingItems(rows: readonly PendingRow[], now: number): PendingItem[] {
  return rows.map((r) => ({
    id: r.id,
    text: r.text,
    ...(r.attachments?.length ? { attachments: [...r.attachments] } : {}),
    ...(r.voice ? { voice: true as const } : {}),
    ...(r.schedule ? { schedule: { ...r.schedule } } : {}),
    ...(r.later ? { later: toLaterMark(r.later, now) } : {}),
  }));
}

/** A queued message's time as the wire shows it (send later). */
export function toLaterMark(later: LaterRef, now: number): LaterMark {
  return { send_at: iso(later.at), when: later.when, due: later.at <= now, ...(later.missed ? { missed: true as const } : {}) };
}

/**
 * The queue as `queue_changed` carries it: each text cut to PENDING_PREVIEW_CHARS characters
 * (code points, as SQLite counts them) with its full length, read without loading whole texts
 * (docs/decisions.md).
 */
export function toPendingPreviews(rows: readonly PendingPreviewRow[], now: number): PendingPreview[] {
  return rows.map((r) => ({
    id: r.id,
    text: r.head,
    truncated: r.length > PENDING_PREVIEW_CHARS,
    length: r.length,
    ...(r.voice ? { voice: true as const } : {}),
    ...(r.schedule ? { schedule: { ...r.schedule } } : {}),
    ...(r.later ? { later: toLaterMark(r.later, now) } : {}),
    ...(r.attachments?.length ? { attachments: [...r.attachments] } : {}),
  }));
}

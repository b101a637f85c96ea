import type { ConversationOut } from "@coffer/protocol";

export type HistoryEntry =
  | { readonly kind: "group"; readonly key: string; readonly label: string }
  | { readonly kind: "row"; readonly key: string; readonly conversation: ConversationOut; readonly index: number };

const DAY = 86_400_000;

export function groupLabel(iso: string, now: Date): string {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const t = Date.parse(iso);
  if (t >= startOfToday) return "Today";
  if (t >= startOfToday - DAY) return "Yesterday";
  if (t >= startOfToday - 7 * DAY) return "Previous 7 days";
  return "Older";
}

/** Rows under date captions, newest first (the server's order is kept). */
export function groupByDate(conversations: readonly ConversationOut[], now = new Date()): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let current = "";
  conversations.forEach((conversation, index) => {
    const label = groupLabel(conversation.updated_at, now);
    if (label !== current) {
      current = label;
      out.push({ kind: "group", key: `g:${label}`, label });
    }
    out.push({ kind: "row", key: conversation.id, conversation, index });
  });
  return out;
}

export function relativeTime(iso: string, now = Date.now()): string {
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (s < 60) return "now";
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  const d = new Date(iso);
  if (s < 7 * 86_400) return d.toLocaleDateString(undefined, { weekday: "short" });
  return d.toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

export function channelLabel(channel: string): string {
  return channel.charAt(0).toUpperCase() + channel.slice(1);
}

/** "via Telegram", or "via a Telegram topic" / "via a Discord thread": a thread in the platform's own word. */
export function viaLabel(binding: { channel: string; thread_id?: string | null; thread_noun?: string }): string {
  return binding.thread_id ? `via a ${channelLabel(binding.channel)} ${binding.thread_noun ?? "topic"}` : `via ${channelLabel(binding.channel)}`;
}

/** Where replies also go, for the chip's tooltip: the chat, or the thread and the group (channel) it hangs in. */
export function bindingTitle(b: { channel: string; chat_id: string; thread_id?: string | null; thread_noun?: string; place_noun?: string }): string {
  const where = b.thread_id ? `its own ${b.thread_noun ?? "topic"} in the ${channelLabel(b.channel)} ${b.place_noun ?? "group"}` : `the ${channelLabel(b.channel)} chat`;
  return `Replies also go to ${where} ${b.chat_id}`;
}

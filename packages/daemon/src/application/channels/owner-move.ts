import type { ConversationStore } from "../ports.js";
import type { ChannelStore } from "./ports.js";

/** What re-pairing moved off the previous owner's chat. */
export interface OwnerMove {
  readonly conversations: readonly { readonly id: string; readonly title: string }[];
  readonly droppedOutbox: number;
}

const TITLES_SHOWN = 5;

/**
 * The owner paired from another chat: that chat must get nothing more (docs/decisions.md,
 * "Hardening II: the phone channel"). Its undelivered messages are dropped and its chat state
 * carried to the new chat; the conversations bound elsewhere are returned for the caller to
 * rebind once the new chat has been told (a rebound running turn is relayed there at once).
 */
export function moveOwnerChat(deps: { channels: ChannelStore; chats: Pick<ConversationStore, "getConversation"> }, channelId: string, from: string, to: string): OwnerMove {
  const ids = deps.channels.boundElsewhere(channelId, to);
  const droppedOutbox = deps.channels.moveOwnerChat(channelId, from, to);
  return { conversations: ids.map((id) => ({ id, title: deps.chats.getConversation(id)?.title ?? id })), droppedOutbox };
}

/** The lines the new chat reads about what moved. */
export function movedText(move: OwnerMove): string {
  const n = move.conversations.length;
  const lines: string[] = [];
  if (n) {
    const titles = move.conversations.slice(0, TITLES_SHOWN).map((c) => `“${c.title}”`);
    const more = n > TITLES_SHOWN ? ` and ${n - TITLES_SHOWN} more` : "";
    lines.push(`Moved here from the previously paired chat: ${n} ${n === 1 ? "conversation" : "conversations"} (${titles.join(", ")}${more}).`);
  }
  lines.push("The previously paired chat gets nothing more: replies, questions and alerts come here.");
  if (move.droppedOutbox) {
    const what = move.droppedOutbox === 1 ? "1 undelivered message was" : `${move.droppedOutbox} undelivered messages were`;
    lines.push(`${what} dropped instead of reaching it.`);
  }
  return lines.join(" ");
}

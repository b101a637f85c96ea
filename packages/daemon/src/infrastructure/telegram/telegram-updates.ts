/** Telegram updates → InboundUpdate: only what a channel reads; other updates keep their id so the offset moves on. */
import type { Chat, Message, Update } from "grammy/types";
import type { InboundUpdate } from "../../application/channels/ports.js";

function chatType(chat: Chat): InboundUpdate["chatType"] {
  switch (chat.type) {
    case "private":
      return "private";
    case "group":
    case "supergroup":
      return "group";
    case "channel":
      return "channel";
    default:
      return "other";
  }
}

/**
 * Only forum topics are threads: in a plain group a reply also carries `message_thread_id`
 * (its thread root), and keying conversations on it would split one chat into many.
 */
function threadOf(message: Message): string | null {
  return message.is_topic_message && message.message_thread_id !== undefined ? String(message.message_thread_id) : null;
}

export function toInboundUpdate(update: Update): InboundUpdate {
  const tap = update.callback_query;
  if (tap) {
    // A tap on a bot message's button: the chat is the message's, the sender the one who tapped.
    const chat = tap.message?.chat;
    return {
      updateId: update.update_id,
      chatId: chat ? String(chat.id) : "",
      threadId: null,
      chatType: chat ? chatType(chat) : "other",
      sender: { id: String(tap.from.id), name: [tap.from.first_name, tap.from.last_name].filter(Boolean).join(" ") },
      text: null,
      callback: { id: tap.id, data: tap.data ?? "" },
    };
  }
  const message = update.message;
  if (!message) {
    const other = update.edited_message ?? update.channel_post ?? update.edited_channel_post;
    return {
      updateId: update.update_id,
      chatId: other ? String(other.chat.id) : "",
      threadId: null,
      chatType: other ? chatType(other.chat) : "other",
      sender: null,
      text: null,
    };
  }
  const from = message.from;
  return {
    updateId: update.update_id,
    chatId: String(message.chat.id),
    threadId: threadOf(message),
    chatType: chatType(message.chat),
    sender: from ? { id: String(from.id), name: [from.first_name, from.last_name].filter(Boolean).join(" ") } : null,
    text: message.text ?? message.caption ?? null,
  };
}

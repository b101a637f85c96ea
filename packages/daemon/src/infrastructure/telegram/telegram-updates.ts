/** Telegram updates → InboundUpdate: only what a channel reads; other updates keep their id so the offset moves on. */
import type { Chat, Message, Update } from "grammy/types";
import type { InboundFile, InboundUpdate } from "../../application/channels/ports.js";

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

/**
 * The files a message carries: the LARGEST size of a photo (Telegram lists every size it made),
 * a document with the sender's name and type, a voice note, audio or video. Names are made up
 * where Telegram gives none, from the message id so parts of an album differ.
 */
function filesOf(message: Message): InboundFile[] {
  const files: InboundFile[] = [];
  const largest = message.photo?.reduce((a, b) => ((b.file_size ?? b.width * b.height) > (a.file_size ?? a.width * a.height) ? b : a));
  if (largest) files.push({ kind: "photo", fileId: largest.file_id, name: `photo-${message.message_id}.jpg`, mediaType: "image/jpeg", size: largest.file_size ?? null });
  const doc = message.document;
  if (doc) files.push({ kind: "document", fileId: doc.file_id, name: doc.file_name ?? `file-${message.message_id}`, mediaType: doc.mime_type ?? "application/octet-stream", size: doc.file_size ?? null });
  const voice = message.voice;
  if (voice) files.push({ kind: "voice", fileId: voice.file_id, name: `voice-${message.message_id}.ogg`, mediaType: voice.mime_type ?? "audio/ogg", size: voice.file_size ?? null });
  const audio = message.audio;
  if (audio) files.push({ kind: "audio", fileId: audio.file_id, name: audio.file_name ?? `audio-${message.message_id}`, mediaType: audio.mime_type ?? "audio/mpeg", size: audio.file_size ?? null });
  const video = message.video;
  if (video) files.push({ kind: "video", fileId: video.file_id, name: video.file_name ?? `video-${message.message_id}.mp4`, mediaType: video.mime_type ?? "video/mp4", size: video.file_size ?? null });
  return files;
}

export function toInboundUpdate(update: Update): InboundUpdate {
  const tap = update.callback_query;
  if (tap) {
    // A tap on a bot message's button: the chat is the message's, the sender the one who tapped.
    const chat = tap.message?.chat;
    return {
      updateId: String(update.update_id),
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
      updateId: String(update.update_id),
      chatId: other ? String(other.chat.id) : "",
      threadId: null,
      chatType: other ? chatType(other.chat) : "other",
      sender: null,
      text: null,
    };
  }
  const from = message.from;
  const files = filesOf(message);
  return {
    updateId: String(update.update_id),
    chatId: String(message.chat.id),
    threadId: threadOf(message),
    chatType: chatType(message.chat),
    sender: from ? { id: String(from.id), name: [from.first_name, from.last_name].filter(Boolean).join(" ") } : null,
    text: message.text ?? message.caption ?? null,
    ...(files.length ? { files } : {}),
    ...(message.media_group_id ? { mediaGroupId: message.media_group_id } : {}),
  };
}

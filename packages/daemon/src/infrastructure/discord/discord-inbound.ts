/**
 * Discord's inbound events → the seam's InboundUpdate: DMs are private chats, a slash command is
 * its command text. A server's text channel is a group that can always hold threads (`isForum`):
 * the channel itself is its main chat (thread null, as Telegram's General), and a thread in it is
 * keyed by the parent channel and the thread's id, so each thread is its own conversation.
 */
import type { InboundFile, InboundUpdate } from "../../application/channels/ports.js";
import type { DiscordInbound, DiscordInboundAttachment } from "./discord-events.js";

/** What a button tap's callback id carries: the interaction's id and token (both needed to answer it). */
export function callbackId(interactionId: string, interactionToken: string): string {
  return `${interactionId}:${interactionToken}`;
}

export function parseCallbackId(id: string): { interactionId: string; interactionToken: string } {
  const at = id.indexOf(":");
  return { interactionId: id.slice(0, at), interactionToken: id.slice(at + 1) };
}

function fileOf(a: DiscordInboundAttachment): InboundFile {
  const type = a.contentType ?? "application/octet-stream";
  // Audio (a voice message is audio/ogg) is heard like Telegram's audio; images show as photos.
  const kind: InboundFile["kind"] = type.startsWith("image/") ? "photo" : type.startsWith("audio/") ? "audio" : type.startsWith("video/") ? "video" : "document";
  // The CDN URL is the file's id: downloadFile fetches it (only from Discord's hosts).
  return { kind, fileId: a.url, name: a.filename, mediaType: type.split(";")[0]!.trim(), size: a.size };
}

/** The command as the owner would have typed it, so the shared command parser handles it. */
export function commandText(name: string, options: Readonly<Record<string, string | number | boolean>>): string {
  const args = Object.values(options).map(String).join(" ").trim();
  return args ? `/${name} ${args}` : `/${name}`;
}

/** Where an event happened, as the seam keys it. */
function placeOf(event: DiscordInbound): Pick<InboundUpdate, "chatId" | "threadId" | "chatType" | "isForum"> {
  if (event.guildId === null) return { chatId: event.channelId, threadId: null, chatType: "private" };
  return event.threadParentId
    ? { chatId: event.threadParentId, threadId: event.channelId, chatType: "group", isForum: true }
    : { chatId: event.channelId, threadId: null, chatType: "group", isForum: true };
}

export function toInboundUpdate(event: DiscordInbound): InboundUpdate {
  const place = placeOf(event);
  switch (event.kind) {
    case "message": {
      const files = event.attachments.map(fileOf);
      return {
        updateId: event.id,
        ...place,
        sender: { id: event.author.id, name: event.author.username },
        text: event.content === "" ? null : event.content,
        ...(files.length ? { files } : {}),
      };
    }
    case "command":
      return {
        updateId: event.interactionId,
        ...place,
        sender: { id: event.user.id, name: event.user.username },
        text: commandText(event.name, event.options),
      };
    case "button":
      return {
        updateId: event.interactionId,
        ...place,
        sender: { id: event.user.id, name: event.user.username },
        text: null,
        callback: { id: callbackId(event.interactionId, event.interactionToken), data: event.customId },
      };
  }
}

import { humanSize, type AttachmentOut } from "@coffer/protocol";
import type { ChatPlatform, OutgoingMessage } from "./ports.js";

/**
 * A file the agent shared, as the chat gets it: a photo when the platform shows that type and it
 * fits the photo limit, else a document when it fits that limit, else one line saying it is too
 * large for the phone and where to open it (the file is on the reply in the page either way).
 */
export function sharedFileMessage(attachment: AttachmentOut, caption: string | null, platform: Pick<ChatPlatform, "displayName" | "uploadLimits">): OutgoingMessage {
  const limits = platform.uploadLimits;
  const photo = limits.photoTypes.includes(attachment.media_type) && attachment.size <= limits.photoMaxBytes;
  if (!photo && attachment.size > limits.documentMaxBytes) {
    return { text: `📎 ${attachment.name} (${humanSize(attachment.size)}) is too large for ${platform.displayName} — open it on the page.` };
  }
  return {
    text: caption ?? "",
    file: { attachmentId: attachment.id, name: attachment.name, mediaType: attachment.media_type, size: attachment.size, as: photo ? "photo" : "document" },
  };
}

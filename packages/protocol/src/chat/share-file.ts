import { z } from "zod";
import { AttachmentOut } from "./attachments.js";

/** `coffer__share_file`: an agent attaches a file it made to its reply (issue 25, "Out"). */
export const ShareFileInput = z.object({
  path: z.string().trim().min(1).max(4096).describe("The file to share: relative to your working directory, or absolute inside it."),
  caption: z.string().trim().max(1024).optional().describe("A short line shown with the file."),
});
export type ShareFileInput = z.infer<typeof ShareFileInput>;

/**
 * The engine's word that a file joined the running reply (coffer__share_file): the page shows it
 * during the turn, a channel sends it after the reply's text. Not content: the file is stored on
 * the reply's row (its `attachments`), so a reload shows the same thing without this event.
 */
export const FileSharedEvent = z.object({
  type: z.literal("file_shared"),
  turn_id: z.string(),
  message_id: z.string().describe("The reply the file is attached to (the assistant message streaming when the agent shared it)."),
  attachment: AttachmentOut,
  caption: z.string().nullable().describe("The agent's line for it (live only: the phone sends it as the photo's or document's caption)."),
});
export type FileSharedEvent = z.infer<typeof FileSharedEvent>;

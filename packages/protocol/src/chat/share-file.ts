import { z } from "zod";

/** `coffer__share_file`: an agent attaches a file it made to its reply (issue 25, "Out"). */
export const ShareFileInput = z.object({
  path: z.string().trim().min(1).max(4096).describe("The file to share: relative to your working directory, or absolute inside it."),
  caption: z.string().trim().max(1024).optional().describe("A short line shown with the file."),
});
export type ShareFileInput = z.infer<typeof ShareFileInput>;

import { z } from "zod";

/**
 * Editing a queued message holds the queue in front of it (issue 22 B; docs/decisions.md,
 * "Editing holds the queue"). The hold is a lease: the editor renews it while it edits, and
 * if it goes away (a closed tab, a lost network) the lease lapses and the queue runs on.
 */
export const EditHoldIn = z.object({
  hold_id: z
    .string()
    .max(100)
    .optional()
    .describe("Renew this hold. Omitted: take a new one. A lapsed hold is taken again when nobody else holds the message."),
});
export type EditHoldIn = z.infer<typeof EditHoldIn>;

export const EditHoldOut = z.object({
  hold_id: z.string().describe("Send it to renew, to release (DELETE), and with the save (PUT …/pending hold_id)."),
  expires_at: z.string().describe("ISO time the hold lapses unless renewed."),
  lease_ms: z.number().int().positive().describe("How long each renewal lasts (COFFER_QUEUE_EDIT_LEASE_MS); renew well within it."),
});
export type EditHoldOut = z.infer<typeof EditHoldOut>;

/** "on the web page", "from the CLI", "from Telegram": where an edit is happening, for every surface's wording. */
export function editorWhere(by: string): string {
  switch (by) {
    case "web":
      return "on the web page";
    case "cli":
      return "from the CLI";
    case "telegram":
      return "from Telegram";
    default:
      return `by ${by}`;
  }
}

/** "being edited on the web page — the queue waits for it": what the CLI and Telegram say about a held message. */
export function editingNote(editing: { readonly by: string }): string {
  return `being edited ${editorWhere(editing.by)} — the queue waits for it`;
}

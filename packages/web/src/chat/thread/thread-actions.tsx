import type { ContentBlock } from "@coffer/protocol";
import { createContext, useContext } from "react";

/** What a message in the open thread may do to it: send a new message (retry, edit-and-resend). */
export interface ThreadActions {
  /** Send `text` as a new message of the owner's (queued if a turn runs); nothing is replaced. */
  readonly resend: (text: string) => void;
  /** The thread's last reply and the owner message it answers: only that reply can be retried. */
  readonly lastReplyId: string | null;
  readonly lastUserText: string | null;
}

export const ThreadActionsContext = createContext<ThreadActions | null>(null);
export const useThreadActions = () => useContext(ThreadActionsContext);

/** A reply's markdown source, as the agent wrote it: its text parts, tool calls left out. */
export function replyMarkdown(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  let current = "";
  for (const b of blocks) {
    if (b.type === "text") current += b.text;
    else if (current) {
      parts.push(current);
      current = "";
    }
  }
  if (current) parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean).join("\n\n");
}

/** Where the owner's last message and the last reply are, read from the thread's rows in order. */
export function lastExchange(rows: readonly { role: "user" | "assistant"; id: string; text: string }[]): {
  lastReplyId: string | null;
  lastUserText: string | null;
} {
  let lastReplyId: string | null = null;
  let lastUserText: string | null = null;
  for (const r of rows) {
    if (r.role === "assistant") lastReplyId = r.id;
    else {
      lastUserText = r.text;
      lastReplyId = null; // a reply must come after it to be retried
    }
  }
  return { lastReplyId, lastUserText };
}

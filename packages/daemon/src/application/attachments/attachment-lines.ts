import type { AttachmentOut } from "@coffer/protocol";

/**
 * What the agent receives for a message with files, until images reach the agents natively (a
 * later task of issue 25): the owner's text, then one line per file naming where its stored copy
 * is, so the agent can read it without anything being written into the owner's working directory.
 */
export function withAttachmentLines(text: string, attachments: readonly AttachmentOut[], pathOf?: (id: string) => string): string {
  if (attachments.length === 0) return text;
  const lines = attachments.map((a) => `- ${a.name} (${a.media_type}, ${a.size} bytes)${pathOf ? `: ${pathOf(a.id)}` : ""}`);
  // A files-only message (empty text) starts with the note itself, not with blank lines.
  return `${text ? `${text}\n\n` : ""}[The owner attached ${attachments.length === 1 ? "a file" : `${attachments.length} files`}; read ${attachments.length === 1 ? "it" : "them"} at the path given (do not modify)]\n${lines.join("\n")}`;
}

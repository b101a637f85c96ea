/** What the fake reads from the last user message of a Messages request. */
export interface UserTurn {
  /** The user's own words: Claude Code puts reminder blocks first and the text last. */
  readonly text: string;
  /** Set when the last message answers a tool call (reminders stripped). */
  readonly toolResult?: string;
}

type Block = Record<string, unknown>;

export function lastUserTurn(messages: readonly { role: string; content: string | Block[] }[]): UserTurn {
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last) return { text: "" };
  if (typeof last.content === "string") return { text: stripReminders(last.content) };
  // After a stop mid-tool, the CLI sends the next user text in the same message as the
  // cancelled call's result (and its "[Request interrupted …]" marker): the text is the turn.
  const texts = last.content
    .filter((b) => b.type === "text")
    .map((b) => stripReminders(String(b.text)))
    .filter((t) => t.length > 0 && !t.startsWith("[Request interrupted"));
  const result = last.content.find((b) => b.type === "tool_result");
  if (result && texts.length === 0) return { text: "", toolResult: stripReminders(blockText(result.content)) };
  return { text: texts.at(-1) ?? "" };
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c: Block) => (c.type === "text" ? String(c.text) : "")).join("");
  return "";
}

export function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
}

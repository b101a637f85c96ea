/**
 * When an agent's session is lost and Coffer's copy cannot put it back, the fresh session's first
 * prompt carries Coffer's own history of the conversation (issue 24): within a budget, the latest
 * messages verbatim, older ones condensed — by the owner's local model when a condenser is given
 * (the internal-default connection coffer__ask uses), else trimmed to their first lines — and the
 * oldest dropped with a count when even that does not fit. Pure but for the condenser.
 */
import type { MessageOut } from "@coffer/protocol";

export interface SeedBudget {
  /** The whole history's size in characters (about 4 per token): well within any agent model's context. */
  readonly maxChars: number;
  /** How many of the latest messages are kept verbatim (each still capped at maxChars / 2). */
  readonly verbatim: number;
  /** An older message, trimmed, keeps this many characters. */
  readonly trimmedChars: number;
}

export const DEFAULT_SEED_BUDGET: SeedBudget = { maxChars: 24_000, verbatim: 6, trimmedChars: 300 };

/** Condenses older messages into a short summary; null when it cannot (then they are trimmed). */
export type HistoryCondenser = (transcript: string, signal?: AbortSignal) => Promise<string | null>;

interface Line {
  readonly role: "user" | "assistant";
  readonly text: string;
}

/** The text a message said (its text blocks; tools and questions left out), or "" for none. */
export function messageText(message: Pick<MessageOut, "content">): string {
  return message.content
    .flatMap((b) => (b.type === "text" ? [b.text] : []))
    .join("")
    .trim();
}

/**
 * The first prompt of a fresh session: the conversation so far, then the owner's new message.
 * `history` is the conversation before this turn, oldest first. With no history, `text` alone.
 */
export async function seededPrompt(
  history: readonly Pick<MessageOut, "role" | "content">[],
  text: string,
  options: { budget?: SeedBudget; condense?: HistoryCondenser; signal?: AbortSignal } = {},
): Promise<string> {
  const budget = options.budget ?? DEFAULT_SEED_BUDGET;
  const lines: Line[] = history.map((m) => ({ role: m.role, text: messageText(m) })).filter((l) => l.text);
  if (lines.length === 0) return text;
  const cut = Math.max(0, lines.length - budget.verbatim);
  const latest = lines.slice(cut).map((l) => ({ ...l, text: trim(l.text, Math.floor(budget.maxChars / 2)) }));
  const older = lines.slice(0, cut);
  let olderPart = "";
  if (older.length > 0) {
    const condensed = options.condense ? await options.condense(render(older), options.signal).catch(() => null) : null;
    olderPart = condensed?.trim()
      ? `Summary of the ${older.length} earlier messages:\n${trim(condensed.trim(), Math.floor(budget.maxChars / 3))}`
      : render(older.map((l) => ({ ...l, text: trim(l.text, budget.trimmedChars) })));
  }
  // Over budget: the oldest parts go first, and the prompt says how many were left out.
  let latestPart = render(latest);
  let dropped = 0;
  let droppedLatest = 0;
  // The newest message always stays, whatever its size (capped above at half the budget).
  while (olderPart.length + latestPart.length > budget.maxChars && (olderPart || latest.length - droppedLatest > 1)) {
    if (olderPart) {
      olderPart = "";
      dropped += older.length;
    } else {
      droppedLatest += 1;
      dropped += 1;
      latestPart = render(latest.slice(droppedLatest));
    }
  }
  const omitted = dropped > 0 ? `(${dropped} earlier message${dropped === 1 ? "" : "s"} left out)\n\n` : "";
  return [
    "[Coffer] Your earlier session for this conversation was lost, so this is a fresh session. Here is the conversation so far, as Coffer kept it (older messages shortened):",
    "",
    "<conversation>",
    `${omitted}${olderPart ? `${olderPart}\n\n` : ""}${latestPart}`,
    "</conversation>",
    "",
    "Carry on from there. The owner's new message:",
    "",
    text,
  ].join("\n");
}

function render(lines: readonly Line[]): string {
  return lines.map((l) => `${l.role === "user" ? "Owner" : "You"}: ${l.text}`).join("\n\n");
}

function trim(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max).trimEnd()}…`;
}

/** How many stored messages a reseed reads at most (older ones would be left out anyway). */
const HISTORY_LIMIT = 400;

/**
 * The conversation before the running turn, oldest first: the stored messages minus the turn's
 * own reply (still streaming) and the owner message it answers (the last one).
 */
export function historyBefore(list: (limit: number) => readonly MessageOut[]): MessageOut[] {
  const messages = list(HISTORY_LIMIT).filter((m) => m.status !== "streaming");
  if (messages.at(-1)?.role === "user") messages.pop();
  return messages;
}

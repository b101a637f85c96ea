import type { ChannelKindOut, ChannelOut, ChannelState } from "@coffer/protocol";
import type { Tone } from "../../ui/page-kit.js";

/** Status is a dot plus a word: the poller's state as the owner reads it. */
export const CHANNEL_STATUS: Record<ChannelState, { tone: Tone; word: string }> = {
  polling: { tone: "success", word: "Connected" },
  starting: { tone: "warning", word: "Starting…" },
  retrying: { tone: "warning", word: "Retrying" },
  stopped: { tone: "danger", word: "Stopped" },
  disabled: { tone: "neutral", word: "Disabled" },
};

/** A platform as its adapter names it (GET /channel-kinds); a kind the daemon no longer registers shows as itself. */
export function kindName(kind: string, kinds: readonly ChannelKindOut[]): string {
  return kinds.find((k) => k.kind === kind)?.display_name ?? kind;
}

/** The last failure is shown only where it explains the state (a running poller's old error is history). */
export function visibleError(c: ChannelOut): string | null {
  return c.status.state === "retrying" || c.status.state === "stopped" ? c.status.last_error : null;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "3 minutes ago", "yesterday"; under a minute reads "just now". */
export function ago(iso: string, now = Date.now()): string {
  const s = Math.round((Date.parse(iso) - now) / 1000);
  for (const [unit, size] of STEPS) if (Math.abs(s) >= size) return relative.format(Math.trunc(s / size), unit);
  return "just now";
}

export function ownerText(c: ChannelOut, now = Date.now()): string {
  return c.owner ? `Paired with ${c.owner.name} · ${ago(c.owner.paired_at, now)}` : "Not paired";
}

/** "valid for 59 min"; a code in its last minute says so, an expired one says that. */
export function validFor(expiresAt: string, now = Date.now()): string {
  const s = Math.floor((Date.parse(expiresAt) - now) / 1000);
  if (s <= 0) return "expired";
  if (s < 60) return `valid for ${s} s`;
  return `valid for ${Math.floor(s / 60)} min`;
}

/**
 * A pairing code that stopped working, said out loud: the bot answers no one but its owner, so
 * whoever sent a dead code heard nothing. A live or used code needs no words here.
 */
export function deadCodeText(c: ChannelOut): string | null {
  const p = c.pairing;
  if (!p || p.state === "live") return null;
  const why = p.state === "voided" ? "Pairing code voided: too many strangers guessed wrong." : "Pairing code expired.";
  const tried = p.refused_at ? " It was sent after that and paired nobody." : "";
  return `${why}${tried} Pair phone for a new one.`;
}

import { laterMarkWords, LATER_WORDS_HELP, parseLaterWhen, willSendWords, type PendingItem } from "@coffer/protocol";
import type { Clock } from "../ports.js";
import type { TurnQueue } from "../turns/turn-queue.js";
import type { TurnReads } from "../turns/turn-reads.js";

/** What /later needs: the queue the page and CLI send into, its read side, the owner's zone. */
export interface PhoneLaterDeps {
  readonly queue: Pick<TurnQueue, "send" | "set">;
  readonly reads: Pick<TurnReads, "pending">;
  /** The owner's zone (COFFER_TIME_ZONE): "07:00" on the phone is 07:00 there. */
  readonly zone: string;
  readonly clock: Clock;
}

export const LATER_USAGE = `Usage: /later <when> <text> — when: ${LATER_WORDS_HELP} (the limit's reset). /later lists them, /later cancel <n> drops one.`;

/**
 * `/later <when> <text>`, `/later`, `/later cancel <n>` (issue 27, send later): the message goes
 * into the chat's active conversation with a time, through the same queue (and audit) as the
 * page's "Send later" and `coffer chat send --at`. A number means what this chat's last list
 * showed, as /schedules' numbers do.
 */
export class LaterCommands {
  private readonly listed = new Map<string, string[]>();

  constructor(private readonly deps: PhoneLaterDeps) {}

  forgetChat(chatId: string): void {
    for (const key of [...this.listed.keys()]) if (key.startsWith(`${chatId}\u0000`)) this.listed.delete(key);
  }

  async run(listKey: string, conversationId: string, arg: string): Promise<string> {
    const words = arg.split(/\s+/).filter(Boolean);
    if (!words.length) return this.list(listKey, conversationId);
    if (words[0]!.toLowerCase() === "cancel") return this.cancel(listKey, conversationId, words.slice(1));
    const parsed = parseLaterWhen(words, this.deps.clock.now(), this.deps.zone);
    if (!parsed) return `That is not a time I know. ${LATER_USAGE}`;
    // The text keeps its own spacing and lines: only the leading "when" words are taken off.
    const text = stripWords(arg, parsed.used);
    if (!text) return `What should I send? ${LATER_USAGE}`;
    const ack = await this.deps.queue.send(conversationId, text, undefined, "queue", [], false, undefined, "at" in parsed.when ? { at: parsed.when.at } : { reset: true });
    if (ack.later) return `${willSendWords(ack.later, this.deps.zone)}. /later lists what waits; /later cancel <n> drops one.`;
    return ack.queued ? "No plan limit is reached now, so it went into the queue now." : "No plan limit is reached now, so it was sent now.";
  }

  /** The scheduled messages of this conversation, numbered, each with its time. */
  list(listKey: string, conversationId: string): string {
    const scheduled = this.scheduled(conversationId);
    this.listed.set(listKey, scheduled.map((p) => p.id));
    if (!scheduled.length) return `Nothing waits to be sent later here. ${LATER_USAGE}`;
    const lines = scheduled.map((p, i) => `${i + 1}. ${laterMarkWords(p.later!, this.deps.zone)} — “${preview(p.text)}”`);
    return [`⏰ Sent later (${scheduled.length}):`, ...lines, "", "/later cancel <n> drops one."].join("\n");
  }

  /** The lines /status shows for them (none: nothing). */
  statusLines(conversationId: string): string[] {
    return this.scheduled(conversationId).map((p) => `  ${laterMarkWords(p.later!, this.deps.zone)} — “${preview(p.text)}”`);
  }

  private async cancel(listKey: string, conversationId: string, rest: string[]): Promise<string> {
    const ids = this.listed.get(listKey) ?? this.scheduled(conversationId).map((p) => p.id);
    const n = rest.length === 1 && /^\d+$/.test(rest[0]!) ? Number(rest[0]) : 0;
    const id = n >= 1 ? ids[n - 1] : undefined;
    if (!id) return ids.length ? `Which one? Use a number from /later (1 to ${ids.length}).` : "Nothing waits to be sent later here.";
    const queue = this.deps.reads.pending(conversationId).pending;
    const found = queue.find((p) => p.id === id);
    if (!found) return "That message is no longer waiting (it was sent or removed). Send /later for the current ones.";
    // The rest of the queue stays as it is, paused or not: a cancel is not a "go".
    await this.deps.queue.set(conversationId, queue.filter((p) => p.id !== id).map((p) => ({ id: p.id })), false, queue.map((p) => p.id));
    return `🗑 Cancelled “${preview(found.text)}”.`;
  }

  private scheduled(conversationId: string): PendingItem[] {
    return this.deps.reads.pending(conversationId).pending.filter((p) => p.later);
  }
}

/** `text` without its first `n` words (and the space after them). */
function stripWords(text: string, n: number): string {
  let rest = text.trimStart();
  for (let i = 0; i < n; i++) rest = rest.replace(/^\S+\s*/, "");
  return rest.trim();
}

function preview(text: string, max = 40): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

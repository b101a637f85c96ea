import { lastRunWords, targetWords, whenWords, type ScheduleOut } from "@coffer/protocol";
import type { ScheduleService } from "../schedules/schedule-service.js";

/** The owner's schedules as the phone manages them: the same service (and audit) as the API. */
export type PhoneSchedules = Pick<ScheduleService, "list" | "update" | "remove" | "runNow">;

export const SCHEDULES_USAGE = "Usage: /schedules, then /schedules pause <n>, resume <n>, run <n> or delete <n>.";

/** Room for the list's entries in one phone message (the smallest platform limit in use is Telegram's 4,096). */
const LIST_CHARS = 3_500;

const ACTIONS = new Set(["pause", "resume", "run", "delete"]);

/**
 * `/schedules [pause|resume|run|delete <n> [yes]]`: the list, numbered, and what each number
 * does. A number means what this chat's last list showed (the list can change between a look and
 * a tap: a deletion must not hit the schedule that slid into its place), and a deletion asks for
 * `yes` first — a phone tap is easy to misfire.
 */
export class ScheduleCommands {
  /** What /schedules last showed each chat. In memory: a convenience, like /list's numbers. */
  private readonly listed = new Map<string, string[]>();

  constructor(
    private readonly schedules: PhoneSchedules,
    private readonly titleOf: (conversationId: string) => string | undefined,
  ) {}

  /** The owner moved away from this chat: its numbers no longer apply (keys start with the chat's id). */
  forgetChat(chatId: string): void {
    for (const key of [...this.listed.keys()]) if (key.startsWith(`${chatId}\u0000`)) this.listed.delete(key);
  }

  async run(listKey: string, arg: string): Promise<string> {
    const words = arg.split(/\s+/).filter(Boolean);
    if (!words.length) return this.list(listKey);
    const [action, n, confirm, ...rest] = words.map((w) => w.toLowerCase());
    if (!ACTIONS.has(action!) || rest.length || (confirm !== undefined && (action !== "delete" || confirm !== "yes"))) return SCHEDULES_USAGE;
    const found = this.pick(listKey, n);
    if (typeof found === "string") return found;
    const name = `“${found.name}”`;
    switch (action) {
      case "pause":
        if (found.paused) return `${name} is already paused.`;
        await this.schedules.update(found.id, { paused: true });
        return `⏸ Paused ${name}. Resume it with /schedules resume ${n}.`;
      case "resume": {
        if (!found.paused) return `${name} is already active.`;
        const after = await this.schedules.update(found.id, { paused: false });
        return `▶️ Resumed ${name}: next run ${this.nextRun(after)}.`;
      }
      case "run": {
        const sent = await this.schedules.runNow(found.id);
        if (sent.waiting_until) return `⏳ ${name} waits for the agent's plan limit to reset (${at(sent.waiting_until, found.time_zone)}).`;
        const where = sent.conversation_id ? ` into “${this.titleOf(sent.conversation_id) ?? "its conversation"}”` : "";
        return `📨 Sent ${name}${where}${sent.queued ? ": it waits behind the running turn" : ""}.`;
      }
      default:
        if (confirm !== "yes") return `Delete ${name}? It stops for good. Send /schedules delete ${n} yes to confirm.`;
        this.schedules.remove(found.id);
        return `🗑 Deleted ${name}.`;
    }
  }

  private list(listKey: string): string {
    const all = this.schedules.list().schedules;
    this.listed.set(listKey, all.map((s) => s.id));
    if (!all.length) return "No schedules yet. Add one in Settings → Schedules or with “coffer schedule add”.";
    const lines = all.map((s, i) => {
      const last = lastRunWords(s);
      return [
        `${i + 1}. ${s.name} — ${whenWords(s.when)} · ${s.time_zone}`,
        `   ${targetWords(s.target, this.titleOf)}`,
        `   ${s.paused ? "⏸ paused" : `active · next ${this.nextRun(s)}`}${last && s.last_run ? ` · last ${at(s.last_run.at, s.time_zone)}: ${last}` : ""}`,
      ].join("\n");
    });
    // One message, under Telegram's 4,096 characters: a long list stops early, every number still works.
    let room = LIST_CHARS;
    const shown = lines.filter((line) => (room -= line.length + 1) >= 0);
    const more = all.length - shown.length;
    const rest = more ? [`… and ${more} more (${shown.length + 1} to ${all.length}): Settings → Schedules or “coffer schedule list” shows them all.`] : [];
    return [`⏰ Schedules (${all.length}):`, ...shown, ...rest, "", "/schedules pause <n> · resume <n> · run <n> (now) · delete <n>"].join("\n");
  }

  /** The schedule number `n` names, or the line that says why it names none. */
  private pick(listKey: string, n: string | undefined): ScheduleOut | string {
    const ids = this.listed.get(listKey) ?? this.schedules.list().schedules.map((s) => s.id);
    const i = n !== undefined && /^\d+$/.test(n) ? Number(n) : 0;
    const id = i >= 1 ? ids[i - 1] : undefined;
    if (!id) return ids.length ? `Which one? Use a number from /schedules (1 to ${ids.length}). ${SCHEDULES_USAGE}` : "No schedules yet.";
    const found = this.schedules.list().schedules.find((s) => s.id === id);
    return found ?? "That schedule is gone. Send /schedules for the current ones.";
  }

  private nextRun(s: ScheduleOut): string {
    return s.next_run_at ? at(s.next_run_at, s.time_zone) : "none";
  }
}

/** A time as the schedule's own zone reads it ("Mon 7 Dec, 07:00"), beside its "Daily at 07:00 · zone". */
function at(iso: string, timeZone: string): string {
  const d = new Date(iso);
  const style = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
  try {
    return new Intl.DateTimeFormat("en-GB", { ...style, timeZone }).format(d);
  } catch {
    // A zone this Node does not know: UTC, named, rather than nothing.
    return `${new Intl.DateTimeFormat("en-GB", { ...style, timeZone: "UTC" }).format(d)} UTC`;
  }
}

import { resolve } from "node:path";
import { ROUTES, type ScheduleOut, type ScheduleTarget, type ScheduleWhen } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { resolveConversationId } from "../conversation-id.js";
import { cmd } from "../hints.js";
import { print, printJson } from "../output.js";

interface TimetableFlags {
  daily?: string;
  weekdays?: string;
  hourly?: boolean;
  cron?: string;
}

interface TargetFlags {
  conversation?: string;
  fresh?: boolean;
  agent?: string;
  cwd?: string;
  model?: string;
}

interface AddFlags extends TimetableFlags, TargetFlags {
  name?: string;
  prompt?: string;
  paused?: boolean;
  json?: boolean;
}

/** The timetable and target flags `add` and `edit` share. */
function withScheduleFlags(c: Command): Command {
  return c
    .option("--daily <HH:MM>", "every day at this time (the daemon's time zone, COFFER_TIME_ZONE)")
    .option("--weekdays <HH:MM>", "Monday to Friday at this time")
    .option("--hourly", "at the top of every hour")
    .option("--cron <expr>", 'a cron expression, e.g. "0 7 * * 1-5"')
    .option("--conversation <id>", "a heartbeat: send each run into this conversation (an id prefix will do)")
    .option("--fresh", "open a fresh conversation each run (with --agent, --cwd, --model)")
    .option("-a, --agent <key>", "the agent of each fresh conversation (see `coffer agents`)")
    .option("--cwd <dir>", "the folder each fresh conversation works in (default: the current folder)")
    .option("-m, --model <model>", "the model of each fresh conversation (default: the agent's own)")
    .option("--name <name>", "what to call it (default: the start of the prompt)")
    .option("--prompt <text>", "what to send each run")
    .option("--json", "print JSON");
}

/** `coffer schedule …`: recurring prompts the daemon sends on a timetable, even while you sleep. */
export function registerSchedules(program: Command, client: () => DaemonClient): void {
  const schedule = program.command("schedule").description("recurring prompts: a heartbeat into a conversation, or a fresh conversation each run");

  schedule
    .command("list")
    .alias("ls")
    .description("schedules with their timetable, next run and last run")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const out = await client().call(ROUTES.listSchedules);
      if (opts.json) return printJson(out);
      if (!out.schedules.length) return print(`no schedules (add one with \`${cmd('schedule add --daily 07:00 --prompt "…" --conversation <id>')}\`)\n`);
      print(out.schedules.map(scheduleLine).join("\n") + "\n");
    });

  withScheduleFlags(schedule.command("add").description("add a recurring prompt: one timetable flag and one target")).option("--paused", "add it paused").action(async (opts: AddFlags) => {
    const c = client();
    if (!opts.prompt) throw new CliError("USAGE", "--prompt <text> is required: what to send each run");
    const when = timetable(opts);
    if (!when) throw new CliError("USAGE", "give a timetable: --daily HH:MM, --weekdays HH:MM, --hourly or --cron EXPR");
    const target = await targetOf(c, opts);
    if (!target) throw new CliError("USAGE", "give a target: --conversation <id>, or --fresh --agent <key> [--cwd DIR] [--model M]");
    const body = { name: opts.name ?? defaultName(opts.prompt), prompt: opts.prompt, when, target, ...(opts.paused ? { paused: true } : {}) };
    const created = await c.call(ROUTES.createSchedule, { body });
    if (opts.json) return printJson(created);
    print(`${scheduleBlock(created)}\n`);
  });

  withScheduleFlags(schedule.command("edit <schedule>").description("change a schedule's name, prompt, timetable or target (by id, id prefix or name)")).action(async (ref: string, opts: AddFlags) => {
    const c = client();
    const found = await resolveSchedule(c, ref);
    const when = timetable(opts);
    const target = await targetOf(c, opts);
    const body = { ...(opts.name ? { name: opts.name } : {}), ...(opts.prompt ? { prompt: opts.prompt } : {}), ...(when ? { when } : {}), ...(target ? { target } : {}) };
    if (!Object.keys(body).length) throw new CliError("USAGE", "nothing to change: give --name, --prompt, a timetable flag or a target");
    const changed = await c.call(ROUTES.updateSchedule, { params: { id: found.id }, body });
    if (opts.json) return printJson(changed);
    print(`${scheduleBlock(changed)}\n`);
  });

  const onSchedule = (verb: string, about: string, run: (c: DaemonClient, found: ScheduleOut, json: boolean) => Promise<void>) =>
    schedule
      .command(`${verb} <schedule>`)
      .description(`${about} (by id, id prefix or name)`)
      .option("--json", "print JSON")
      .action(async (ref: string, opts: { json?: boolean }) => {
        const c = client();
        await run(c, await resolveSchedule(c, ref), opts.json === true);
      });

  for (const [verb, paused, about] of [
    ["pause", true, "stop it running until resumed"],
    ["resume", false, "run it again, from its next due time (missed ones are not caught up)"],
  ] as const) {
    onSchedule(verb, about, async (c, found, json) => {
      const changed = await c.call(ROUTES.updateSchedule, { params: { id: found.id }, body: { paused } });
      if (json) return printJson(changed);
      print(`${paused ? "paused" : "resumed"} ${changed.name}${changed.next_run_at ? `; next run ${localTime(changed.next_run_at)}` : ""}\n`);
    });
  }

  onSchedule("delete", "remove a schedule; what it already sent stays in history", async (c, found, json) => {
    await c.call(ROUTES.deleteSchedule, { params: { id: found.id } });
    if (json) return printJson(found);
    print(`deleted ${found.name}\n`);
  });

  onSchedule("run", "send its prompt now; the timetable is unchanged", async (c, found, json) => {
    const out = await c.call(ROUTES.runSchedule, { params: { id: found.id } });
    if (json) return printJson(out);
    if (out.waiting_until) return print(`waiting for the agent's plan limit to reset at ${localTime(out.waiting_until)}; it is sent then\n`);
    print(`${out.queued ? "queued behind the running turn in" : "sent to"} conversation ${out.conversation_id}\n`);
  });
}

function timetable(opts: TimetableFlags): ScheduleWhen | null {
  const given = [opts.daily, opts.weekdays, opts.hourly, opts.cron].filter((v) => v !== undefined).length;
  if (given > 1) throw new CliError("USAGE", "give one timetable: --daily, --weekdays, --hourly or --cron");
  if (opts.daily) return { preset: "daily_at", at: clockTime(opts.daily, "--daily") };
  if (opts.weekdays) return { preset: "weekdays_at", at: clockTime(opts.weekdays, "--weekdays") };
  if (opts.hourly) return { preset: "hourly" };
  if (opts.cron) return { cron: opts.cron };
  return null;
}

/** 7:00 → 07:00 (the protocol wants HH:MM). */
export function clockTime(raw: string, flag: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(raw.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) throw new CliError("USAGE", `${flag} wants a time as HH:MM (24-hour), got "${raw}"`);
  return `${m[1]!.padStart(2, "0")}:${m[2]}`;
}

async function targetOf(c: DaemonClient, opts: TargetFlags): Promise<ScheduleTarget | null> {
  if (opts.conversation && opts.fresh) throw new CliError("USAGE", "give --conversation or --fresh, not both");
  if (opts.conversation) return { conversation_id: await resolveConversationId(c, opts.conversation) };
  if (!opts.fresh) return null;
  if (!opts.agent) throw new CliError("USAGE", "--fresh needs --agent <key> (see `coffer agents`)");
  return { fresh: { agent: opts.agent, cwd: resolve(opts.cwd ?? process.cwd()), ...(opts.model ? { model: opts.model } : {}) } };
}

function defaultName(prompt: string): string {
  const line = prompt.replace(/\s+/g, " ").trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

async function resolveSchedule(c: DaemonClient, ref: string): Promise<ScheduleOut> {
  const { schedules } = await c.call(ROUTES.listSchedules);
  const exact = schedules.find((s) => s.id === ref || s.name === ref);
  if (exact) return exact;
  const byPrefix = schedules.filter((s) => s.id.startsWith(ref.toLowerCase()));
  if (byPrefix.length === 1) return byPrefix[0]!;
  if (byPrefix.length > 1) throw new CliError("USAGE", `"${ref}" is the start of several schedule ids; give more characters`);
  throw new CliError("SCHEDULE_NOT_FOUND", `no schedule with the id or name "${ref}" (see \`${cmd("schedule list")}\`)`);
}

function whenText(w: ScheduleWhen): string {
  if ("cron" in w) return `cron ${w.cron}`;
  if (w.preset === "hourly") return "hourly";
  return w.preset === "daily_at" ? `daily at ${w.at}` : `weekdays at ${w.at}`;
}

function targetText(t: ScheduleTarget): string {
  if ("conversation_id" in t) return `into conversation ${t.conversation_id.slice(0, 8)}`;
  return `fresh ${t.fresh.agent} conversation in ${t.fresh.cwd}${t.fresh.model ? ` (${t.fresh.model})` : ""}`;
}

function localTime(iso: string): string {
  return new Date(iso).toLocaleString();
}

function lastRunText(s: ScheduleOut): string {
  const r = s.last_run;
  if (!r) return "never";
  return `${localTime(r.at)} ${r.status}${r.message ? ` (${r.message})` : ""}`;
}

function scheduleLine(s: ScheduleOut): string {
  const next = s.paused ? "paused" : s.next_run_at ? `next ${localTime(s.next_run_at)}` : "no next run";
  return `⏰ ${s.id.slice(0, 8)}  ${s.name}  ${whenText(s.when)} (${s.time_zone})  ${targetText(s.target)}  ${next}`;
}

function scheduleBlock(s: ScheduleOut): string {
  return [
    `id:        ${s.id}`,
    `name:      ${s.name}`,
    `when:      ${whenText(s.when)} (${s.time_zone})`,
    `target:    ${targetText(s.target)}`,
    `state:     ${s.paused ? "paused" : "active"}`,
    `next run:  ${s.next_run_at ? localTime(s.next_run_at) : "none"}`,
    `last run:  ${lastRunText(s)}`,
    `prompt:    ${s.prompt}`,
  ].join("\n");
}

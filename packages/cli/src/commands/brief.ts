import { ROUTES, type BriefSettingsOut, type BriefSettingsPatch } from "@coffer/protocol";
import type { Command } from "commander";
import type { DaemonClient } from "../client.js";
import { print, printJson } from "../output.js";
import { clockTime } from "./schedules.js";

/** `coffer brief …`: the morning brief — one summary of the night to the phone and the page. */
export function registerBrief(program: Command, client: () => DaemonClient): void {
  const brief = program.command("brief").description("the morning brief: what happened since the last one, sent to the phone and the page each day");
  const settings = (s: BriefSettingsOut, json?: boolean) => (json ? printJson(s) : print(`${briefBlock(s)}\n`));
  const put = async (body: BriefSettingsPatch, json?: boolean) =>
    settings(await client().call(ROUTES.setBrief, { body }), json);

  brief
    .command("show")
    .description("whether it is on, its time (the daemon's zone), where it goes, the next and the last")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => settings(await client().call(ROUTES.getBrief), opts.json));

  brief
    .command("on")
    .description("send the brief each day (default 07:30; where: --phone-only, --page-only, or both)")
    .option("--phone-only", "only to the phone's paired chats")
    .option("--page-only", "only to the page's alert area")
    .option("--json", "print JSON")
    .action((opts: { phoneOnly?: boolean; pageOnly?: boolean; json?: boolean }) =>
      put({ enabled: true, ...(opts.phoneOnly || opts.pageOnly ? { to: { phone: !opts.pageOnly, page: !opts.phoneOnly } } : {}) }, opts.json),
    );

  brief
    .command("off")
    .description("stop the daily brief")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => put({ enabled: false }, opts.json));

  brief
    .command("at <HH:MM>")
    .description("the time it is sent, in the daemon's zone (COFFER_TIME_ZONE)")
    .option("--json", "print JSON")
    .action((time: string, opts: { json?: boolean }) => put({ at: clockTime(time, "at") }, opts.json));

  brief
    .command("now")
    .description("build the brief now and send it where it goes (a preview; the daily time is unchanged)")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const out = await client().call(ROUTES.sendBrief);
      if (opts.json) return printJson(out);
      const where = [out.delivered.phone_chats ? `${out.delivered.phone_chats} phone chat${out.delivered.phone_chats === 1 ? "" : "s"}` : null, out.delivered.page ? "the page" : null].filter(Boolean);
      print(`${out.text}\n\n(sent to ${where.length ? where.join(" and ") : "nowhere: no phone chat is paired and the page is off"})\n`);
    });
}

function briefBlock(s: BriefSettingsOut): string {
  const to = [s.to.phone ? "phone" : null, s.to.page ? "page" : null].filter(Boolean).join(" and ");
  return [
    `brief:  ${s.enabled ? "on" : "off"}`,
    `at:     ${s.at} (${s.time_zone})`,
    `to:     ${to}`,
    `next:   ${s.next_at ? new Date(s.next_at).toLocaleString() : "none"}`,
    `last:   ${s.last_sent_at ? new Date(s.last_sent_at).toLocaleString() : "never"}`,
  ].join("\n");
}

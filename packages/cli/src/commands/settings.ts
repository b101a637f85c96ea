import { ROUTES, type RetentionSettingsPatch } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { print, printJson } from "../output.js";

/** "never" = keep forever (that stage off); otherwise a whole number of days ≥ 1. */
function days(flag: string, raw: string): number | null {
  if (raw === "never") return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new CliError("USAGE", `${flag} takes a number of days (≥ 1) or "never", got "${raw}"`);
  return n;
}

const describe = (n: number | null, what: string) => (n === null ? `never (keep forever)` : `${what} after ${n} day${n === 1 ? "" : "s"}`);

export function registerSettings(program: Command, client: () => DaemonClient): void {
  const settings = program.command("settings").description("daemon settings");

  settings
    .command("retention")
    .description("show or change the conversation retention windows")
    .option("--archive-after <days>", 'archive conversations idle this many days, or "never"')
    .option("--delete-after <days>", 'delete archived conversations this many days after archiving, or "never"')
    .option("--json", "print JSON")
    .action(async (opts: { archiveAfter?: string; deleteAfter?: string; json?: boolean }) => {
      const patch: RetentionSettingsPatch = {};
      if (opts.archiveAfter !== undefined) patch.archive_after_days = days("--archive-after", opts.archiveAfter);
      if (opts.deleteAfter !== undefined) patch.delete_after_days = days("--delete-after", opts.deleteAfter);
      const out = Object.keys(patch).length
        ? await client().call(ROUTES.setRetention, { body: patch })
        : await client().call(ROUTES.getRetention);
      if (opts.json) return printJson(out);
      print(`auto-archive: ${describe(out.archive_after_days, "idle conversations archived")}\n`);
      print(`auto-delete:  ${describe(out.delete_after_days, "archived conversations deleted")}\n`);
    });
}

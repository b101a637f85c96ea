import { AUDIT_ACTIONS, ROUTES } from "@coffer/protocol";
import { Option, type Command } from "commander";
import type { DaemonClient } from "../client.js";
import { print, printJson, summarise } from "../output.js";

export function registerAudit(program: Command, client: () => DaemonClient): void {
  program
    .command("audit")
    .description("the audit log, newest first (conversations, turns, retention, credentials, MCP servers, vault and memory changes…)")
    .addOption(new Option("-a, --action <action>", "only this action, e.g. chat_turn_completed").choices(AUDIT_ACTIONS))
    .option("-n, --limit <n>", "how many (default 50)", "50")
    .option("--json", "print JSON")
    .action(async (opts: { action?: string; limit: string; json?: boolean }) => {
      const page = await client().call(ROUTES.listAudit, { query: { limit: opts.limit, action: opts.action } });
      if (opts.json) return printJson(page);
      if (!page.entries.length) print("no entries\n");
      for (const e of page.entries) {
        print(`${e.at.slice(0, 19).replace("T", " ")}  ${e.actor.padEnd(9)} ${e.action.padEnd(26)} ${summarise(e.details, 100)}\n`);
      }
    });
}

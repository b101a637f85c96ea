import { ROUTES } from "@coffer/protocol";
import type { Command } from "commander";
import type { DaemonClient } from "../client.js";
import { print, printJson } from "../output.js";

export function registerAgents(program: Command, client: () => DaemonClient): void {
  program
    .command("agents")
    .description("list the agents this daemon offers")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { agents } = await client().call(ROUTES.listAgents);
      if (opts.json) return printJson({ agents });
      for (const a of agents) {
        print(`${a.agent_key.padEnd(14)} ${a.display_name.padEnd(16)} ${a.available ? "available" : "unavailable"}\n`);
      }
    });
}

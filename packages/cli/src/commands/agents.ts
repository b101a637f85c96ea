import { ROUTES, type AgentSetupOut } from "@coffer/protocol";
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
        // Not on the daemon's PATH: how to get it, as the agent itself says (the page shows the same).
        if (!a.available) for (const line of setupLines(a.setup)) print(`  ${line}\n`);
      }
    });
}

/** "install: …" then "sign in: …": commands as they are typed, environment variables as the alternative. */
export function setupLines(setup: AgentSetupOut): string[] {
  const commands = setup.sign_in.flatMap((s) => ("command" in s ? [s.command] : []));
  const envs = setup.sign_in.flatMap((s) => ("env" in s ? [s.env] : []));
  const signIn = [commands.join(" or "), envs.length ? `set ${envs.join(" or ")} for the daemon` : ""].filter(Boolean).join(", or ");
  return [`install: ${setup.install.command}`, ...(signIn ? [`sign in: ${signIn}`] : [])];
}

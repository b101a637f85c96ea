import { ROUTES } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { print, printJson } from "../output.js";
import { readSecret } from "../secret-input.js";

/** `coffer cred`: write-only secrets. The secret never travels in argv (shell history, ps). */
export function registerCredentials(program: Command, client: () => DaemonClient): void {
  const cred = program.command("cred").description("credentials (secrets are write-only: set, list refs, remove)");

  cred
    .command("set <ref>")
    .description("store a secret under <ref>, read from stdin or a hidden prompt")
    .action(async (ref: string) => {
      const secret = await readSecret(`secret for ${ref}: `);
      if (!secret) throw new CliError("USAGE", "no secret given (pipe it on stdin or type it at the prompt)");
      await client().call(ROUTES.setCredential, { params: { ref }, body: { secret } });
      print(`stored ${ref}\n`);
    });

  cred
    .command("ls")
    .description("list credential refs (never their values)")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const out = await client().call(ROUTES.listCredentials);
      if (opts.json) return printJson(out);
      if (!out.credentials.length) print("no credentials\n");
      for (const c of out.credentials) print(`${c.ref.padEnd(32)} updated ${c.updated_at.slice(0, 16).replace("T", " ")}\n`);
    });

  cred
    .command("rm <ref>")
    .description("remove a credential")
    .action(async (ref: string) => {
      await client().call(ROUTES.deleteCredential, { params: { ref } });
      print(`removed ${ref}\n`);
    });
}

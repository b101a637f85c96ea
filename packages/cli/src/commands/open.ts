import type { Command } from "commander";
import { ROUTES } from "@coffer/protocol";
import { openInBrowser } from "../browser.js";
import { CliError, type DaemonClient } from "../client.js";

/**
 * `coffer open`: verify the daemon (the client's proof), then open the page signed in. The
 * daemon writes a private 0600 file that forwards to a single-use login code (in the URL
 * fragment, which browsers never send to a server) and the browser is started with that file's
 * path only: argv is world-readable. The long-lived token never reaches the browser
 * (docs/decisions.md, "Daemon proof"; "Hardening II").
 */
export function registerOpen(program: Command, client: () => DaemonClient): void {
  program
    .command("open")
    .description("verify the running daemon, then open its page in your browser (signed in)")
    .option("--print", "print the one-time address (valid 60 s) instead of opening a browser")
    .action(async (opts: { print?: boolean }) => {
      const c = client();
      if (opts.print) {
        const { code } = await c.call(ROUTES.issueLoginCode, { body: {} });
        process.stdout.write(`${c.conn.url}/#login=${code}\n`);
        return;
      }
      const { handoff_file } = await c.call(ROUTES.issueLoginCode, { body: { handoff: true } });
      if (!handoff_file) throw new CliError("HTTP_ERROR", "the daemon wrote no sign-in file; run `coffer open --print` instead");
      const { opened, command } = await openInBrowser(handoff_file);
      if (opened) process.stdout.write(`Opened ${c.conn.url} in your browser.\n`);
      else {
        process.stdout.write(
          `Could not start a browser (${command}). Within 60 s, open this file in your browser:\n${handoff_file}\n` +
            "or run `coffer open --print` for a link to paste.\n",
        );
      }
    });
}

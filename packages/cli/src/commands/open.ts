import type { Command } from "commander";
import { pathToFileURL } from "node:url";
import { ROUTES } from "@coffer/protocol";
import { openInBrowser } from "../browser.js";
import { CliError, type DaemonClient } from "../client.js";
import { cmd, hasDisplay } from "../hints.js";

export interface SignIn {
  /** Whether a browser command could be started. */
  readonly opened: boolean;
  /** The command tried. */
  readonly command: string;
  /** The private 0600 hand-off file the browser was (or is to be) given. */
  readonly file: string;
}

/**
 * Asks the verified daemon for a hand-off file and starts the browser on it: only the file's
 * path goes on the browser's command line (argv is world-readable), never the code.
 * `coffer open` and `npm start` both sign in this way.
 */
export async function signInWithBrowser(c: DaemonClient): Promise<SignIn> {
  const { handoff_file } = await c.call(ROUTES.issueLoginCode, { body: { handoff: true } });
  if (!handoff_file) throw new CliError("HTTP_ERROR", `the daemon wrote no sign-in file; run \`${cmd("open --print")}\` instead`);
  const { opened, command } = await openInBrowser(handoff_file);
  return { opened, command, file: handoff_file };
}

/** What to do when no browser could be started: the file's link (no secret in it) and the fallback. */
export function noBrowserText(why: string, file: string): string {
  return (
    `${why} Within 60 s, open this link in your browser to sign in:\n  ${pathToFileURL(file).href}\n` +
    `or run \`${cmd("open --print")}\` for a one-time address to paste.\n`
  );
}

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
      // Without a display xdg-open starts and fails later: say so rather than claim it opened.
      if (!hasDisplay()) {
        const { handoff_file } = await c.call(ROUTES.issueLoginCode, { body: { handoff: true } });
        if (!handoff_file) throw new CliError("HTTP_ERROR", `the daemon wrote no sign-in file; run \`${cmd("open --print")}\` instead`);
        process.stdout.write(noBrowserText("No display here, so no browser was started.", handoff_file));
        return;
      }
      const { opened, command, file } = await signInWithBrowser(c);
      if (opened) process.stdout.write(`Opened ${c.conn.url} in your browser.\n`);
      else process.stdout.write(noBrowserText(`Could not start a browser (${command} was not found).`, file));
    });
}

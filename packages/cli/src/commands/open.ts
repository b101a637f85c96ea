import { spawn } from "node:child_process";
import type { Command } from "commander";
import { ROUTES } from "@coffer/protocol";
import type { DaemonClient } from "../client.js";

/** The platform's "open this URL" command. */
function opener(url: string): [string, string[]] {
  if (process.platform === "darwin") return ["open", [url]];
  if (process.platform === "win32") return ["cmd", ["/c", "start", "", url]];
  return ["xdg-open", [url]];
}

/**
 * `coffer open`: verify the daemon (the client's proof), then open the page with a
 * single-use login code in the URL fragment, which browsers never send to a server.
 * The long-lived token never reaches the browser (docs/decisions.md, "Daemon proof").
 */
export function registerOpen(program: Command, client: () => DaemonClient): void {
  program
    .command("open")
    .description("verify the running daemon, then open its page in your browser (logged in)")
    .option("--print", "print the one-time address (valid 60 s) instead of opening a browser")
    .action(async (opts: { print?: boolean }) => {
      const c = client();
      const { code } = await c.call(ROUTES.issueLoginCode);
      const url = `${c.conn.url}/#login=${code}`;
      if (opts.print) {
        process.stdout.write(`${url}\n`);
        return;
      }
      const [cmd, args] = opener(url);
      const opened = await new Promise<boolean>((resolve) => {
        const child = spawn(cmd, args, { stdio: "ignore", detached: true });
        child.once("error", () => resolve(false));
        child.once("spawn", () => {
          child.unref();
          resolve(true);
        });
      });
      if (opened) process.stdout.write(`Opened ${c.conn.url} in your browser.\n`);
      else process.stdout.write(`Could not start a browser (${cmd}). Open this address within 60 s:\n${url}\n`);
    });
}

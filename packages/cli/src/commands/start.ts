import type { Command } from "commander";
import { DaemonClient } from "../client.js";
import { cmd, hasDisplay } from "../hints.js";
import { print } from "../output.js";
import { noBrowserText, signInWithBrowser } from "./open.js";

interface StartOptions {
  port?: string;
  workspace?: string;
  printUrl?: boolean;
  open?: boolean;
}

/**
 * `coffer start`: the daemon in the foreground (what `npm start` runs, with `--open`). The
 * banner is the URL and how to sign in; the daemon's JSON log goes to its log file, not here
 * (docs/decisions.md, "First start").
 */
export function registerStart(program: Command): void {
  program
    .command("start")
    .description("run the daemon in the foreground and print the URL to open")
    .option("-p, --port <port>", "port on 127.0.0.1 (0 = any free port; default $COFFER_PORT or 7431)")
    .option("--workspace <dir>", "where agents run when a conversation names no folder; outside the data dir (default $COFFER_WORKSPACE or ~/coffer-workspace)")
    .option("--print-url", "print the address with the token in it (it ends up in any log stdout goes to)")
    .option("--open", "once it runs, open the page in your browser, signed in (what `npm start` does)")
    .option("--no-open", "do not open a browser (also: COFFER_NO_OPEN=1)")
    .action(async (opts: StartOptions) => {
      // Loaded only here: every other command stays a thin HTTP client that starts fast.
      const { resolveDaemonConfig, startDaemon } = await import("@coffer/daemon");
      const globals = program.opts<{ home?: string }>();
      const config = resolveDaemonConfig(process.env, { port: opts.port, home: globals.home, workspace: opts.workspace });
      const daemon = await startDaemon(config);
      // Before anything is printed: whoever reads the banner may stop the daemon at once.
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        print(`\n${signal}: stopping…\n`);
        daemon.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      const open = cmd("open");
      // Owners redirect this banner into log files: the token only when asked (docs/decisions.md, "Daemon proof").
      if (opts.printUrl) print(`Coffer is running. Open ${daemon.url}/?token=${daemon.token}\n`);
      else if (!opts.open) print(`Coffer is running at ${daemon.url}. Open it with \`${open}\`\n`);
      else {
        print(`Coffer is running at ${daemon.url}.\n`);
        print(await openNow(daemon.url, daemon.token, open));
      }
      print(`Workspace: ${config.workspace}   (where agents run when a conversation names no folder)\n`);
      print(`Data dir: ${daemon.home}   Log: ${config.logFile ?? "stderr"}   (Ctrl-C to stop)\n`);
    });
}

/** The first start's sign-in: the same private hand-off as `coffer open`, when a browser can be shown. */
async function openNow(url: string, token: string, open: string): Promise<string> {
  if (process.env.COFFER_NO_OPEN === "1") return `Open it with \`${open}\`\n`;
  if (!hasDisplay()) return `No display here, so no browser was started: run \`${cmd("open --print")}\` for a one-time sign-in address (valid 60 s), or \`${open}\` once there is a display.\n`;
  try {
    const signIn = await signInWithBrowser(new DaemonClient({ url, token }));
    if (signIn.opened) return `Opened it in your browser, signed in. To open it again: \`${open}\`\n`;
    return noBrowserText(`Could not start a browser (${signIn.command} was not found).`, signIn.file);
  } catch (err) {
    // The daemon runs either way: say why, and how to sign in by hand.
    return `Could not open the page (${err instanceof Error ? err.message : String(err)}). Open it with \`${open}\`\n`;
  }
}

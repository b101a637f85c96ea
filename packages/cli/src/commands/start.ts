import type { Command } from "commander";
import { print } from "../output.js";

/** `coffer start`: the daemon in the foreground (what `npm start` runs). */
export function registerStart(program: Command): void {
  program
    .command("start")
    .description("run the daemon in the foreground and print the URL to open")
    .option("-p, --port <port>", "port on 127.0.0.1 (0 = any free port; default $COFFER_PORT or 7431)")
    .option("--workspace <dir>", "where agents run when a conversation names no folder; outside the data dir (default $COFFER_WORKSPACE or ~/coffer-workspace)")
    .option("--print-url", "print the address with the token in it (it ends up in any log stdout goes to)")
    .action(async (opts: { port?: string; workspace?: string; printUrl?: boolean }) => {
      // Loaded only here: every other command stays a thin HTTP client that starts fast.
      const { resolveDaemonConfig, startDaemon } = await import("@coffer/daemon");
      const globals = program.opts<{ home?: string }>();
      const config = resolveDaemonConfig(process.env, { port: opts.port, home: globals.home, workspace: opts.workspace });
      const daemon = await startDaemon(config);
      // Owners redirect this banner into log files: the token only when asked (docs/decisions.md, "Daemon proof").
      if (opts.printUrl) print(`Coffer is running. Open ${daemon.url}/?token=${daemon.token}\n`);
      else print(`Coffer is running at ${daemon.url}. Open it with \`coffer open\`\n`);
      print(`Workspace: ${config.workspace}   (where agents run when a conversation names no folder)\n`);
      print(`Data dir: ${daemon.home}   (Ctrl-C to stop)\n`);
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
      process.on("SIGINT", () => stop("SIGINT"));
      process.on("SIGTERM", () => stop("SIGTERM"));
    });
}

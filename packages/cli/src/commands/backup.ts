import { resolve } from "node:path";
import { ROUTES, type BackupOut, type BackupRequest } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, connect, DaemonClient, dataDir, type GlobalOptions } from "../client.js";
import { confirm } from "../confirm.js";
import { cmd, startCmd } from "../hints.js";
import { print, printJson } from "../output.js";

const size = (bytes: number) => (bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** What a backup holding the key means, said where it is written (README, "Backups"). */
function keyNote(b: BackupOut, leftOut: boolean): string {
  if (b.key_included) return "It holds the credentials key: anyone with this file can decrypt your stored credentials, so keep it where you would keep the key.\n";
  if (leftOut) return "It does not hold the credentials key: restored on its own, its credentials cannot be decrypted (they must be set again).\n";
  return "This data dir has no credentials key yet (no credential was ever stored), so none is inside.\n";
}

/**
 * `coffer backup`, `coffer restore`, `coffer doctor` (docs/decisions.md, "Backups, restore and
 * doctor"). Backup asks the running daemon (online, consistent while turns run) and works on the
 * data dir directly when none runs; restore and doctor work on the files, loading the daemon's
 * code only here.
 */
export function registerBackup(program: Command): void {
  const globals = () => program.opts<GlobalOptions>();

  program
    .command("backup [path]")
    .description("back up the data dir into one file: the snapshot folder by default, or a folder or new file you name")
    .option("--without-key", "leave the credentials key out (the credentials then cannot be decrypted from this file alone)")
    .option("--json", "print JSON")
    .action(async (path: string | undefined, opts: { withoutKey?: boolean; json?: boolean }) => {
      const request: BackupRequest = { ...(path ? { path: resolve(path) } : {}), ...(opts.withoutKey ? { without_key: true } : {}) };
      let out: BackupOut;
      let offline = false;
      try {
        out = await new DaemonClient(connect(globals())).call(ROUTES.createBackup, { body: request });
      } catch (err) {
        // No daemon on this data dir (none found, or its daemon.json is stale): the files are safe to read directly.
        const explicit = globals().url || process.env.COFFER_URL;
        if (!(err instanceof CliError) || err.code !== "DAEMON_UNREACHABLE" || explicit) throw err;
        const { backupOffline, resolveDaemonConfig } = await import("@coffer/daemon");
        out = await backupOffline({ config: resolveDaemonConfig(process.env, { home: globals().home }), env: process.env, request });
        offline = true;
      }
      if (opts.json) return printJson(out);
      print(`Backed up to ${out.path} (${size(out.size_bytes)})${offline ? ", from the data dir directly (no daemon is running)" : ""}.\n`);
      print(keyNote(out, opts.withoutKey === true));
    });

  program
    .command("restore <file>")
    .description("replace the data dir with a backup (checked first; the current data dir is kept beside it); asks first on a terminal")
    .option("--data-dir <dir>", "the data dir to restore into (default: --home, $COFFER_HOME or ~/.coffer); it may not exist yet")
    .option("-y, --yes", "restore without asking (needed when stdin is not a terminal)")
    .action(async (file: string, opts: { dataDir?: string; yes?: boolean }) => {
      const home = resolve(opts.dataDir ?? dataDir(globals()));
      if (!opts.yes && !process.stdin.isTTY) throw new CliError("USAGE", "restore replaces the data dir and there is no terminal to ask on: add --yes to confirm");
      const { contents, readBackupManifest, restoreBackup } = await import("@coffer/daemon");
      const manifest = await readBackupManifest(resolve(file));
      if (!opts.yes) {
        const when = new Date(manifest.created_at).toISOString();
        const question = `Restore the backup of ${when} (${manifest.key_included ? "with" : "without"} the credentials key) into ${home}? The data dir there now is kept beside it. [y/N] `;
        if (!(await confirm(question))) throw new CliError("CANCELLED", "not restored");
      }
      const done = await restoreBackup({ file, home });
      const queued = done.counts.queued ?? 0;
      print(`Restored ${resolve(file)} into ${done.home}: ${contents(done.counts)}, ${queued} queued ${queued === 1 ? "message" : "messages"}.\n`);
      if (done.previous) print(`The data dir that was there is kept at ${done.previous} (delete it once you are happy).\n`);
      if (done.credentials > 0) {
        const creds = done.credentials === 1 ? "its credential" : `its ${done.credentials} credentials`;
        if (done.key === "restored") print(`The credentials key came with it and opens ${creds}.\n`);
        else if (done.key === "carried") print(`The backup holds no key; the key of the data dir it replaced opens ${creds}, so it was kept.\n`);
        else print(`The backup holds no credentials key, so ${creds} cannot be decrypted; set them again with \`${cmd("cred set <ref>")}\`.\n`);
      }
      print(`Start Coffer on it with \`${startCmd()}\`.\n`);
    });

  program
    .command("doctor")
    .description("check the data dir: the database's integrity, the credentials key, file modes, free space, the latest snapshot")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { resolveDaemonConfig, runDoctor } = await import("@coffer/daemon");
      const findings = runDoctor({ config: resolveDaemonConfig(process.env, { home: globals().home }), env: process.env });
      const problems = findings.filter((f) => f.level === "problem").length;
      if (opts.json) printJson({ problems, findings });
      else {
        for (const f of findings) {
          print(`${f.level === "ok" ? "✓" : f.level === "warning" ? "!" : "✗"} ${f.text}\n`);
          if (f.fix && f.level !== "ok") print(`    → ${f.fix}\n`);
        }
        print(problems ? "" : "No problems found.\n");
      }
      if (problems) throw new CliError("PROBLEMS_FOUND", `${problems} problem${problems === 1 ? "" : "s"} found; each has its fix above`);
    });
}

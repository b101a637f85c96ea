import * as fs from "node:fs";
import type { Logger } from "../../application/ports.js";
import type { LogLevel } from "./console-logger.js";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
/** Past this the file is renamed to `<file>.1` (one old file kept) and a fresh one started. */
export const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024;

const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;

/**
 * The daemon's JSON log lines in a private file (0600, never through a link), so the terminal
 * `npm start` runs in shows the banner and not a stream of JSON (issue 22). Warnings and errors
 * are also said on stderr in one plain line each (`echo`): a foreground owner still sees a
 * problem, and the file holds its details. Writes are synchronous: lines are few and a crash
 * must not lose the last ones. The file is opened on the first line, after the data dir exists.
 */
export function fileLogger(path: string, level: LogLevel, echo: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  let fd: number | null = null;
  let size = 0;
  let broken = false;
  const open = () => {
    fd = fs.openSync(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
    fs.fchmodSync(fd, 0o600);
    size = fs.fstatSync(fd).size;
  };
  const write = (line: string) => {
    if (broken) return;
    try {
      if (fd === null) open();
      if (size + line.length > LOG_FILE_MAX_BYTES) {
        fs.closeSync(fd!);
        fs.renameSync(path, `${path}.1`);
        open();
      }
      size += fs.writeSync(fd!, line);
    } catch (err) {
      // Nothing lost silently: say once that the file cannot be written, then log to stderr.
      broken = true;
      echo(`coffer: cannot write the log file ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}); logging to stderr instead\n`);
    }
  };
  const emit = (lvl: Exclude<LogLevel, "silent">) => (msg: string, ctx?: Record<string, unknown>) => {
    if (RANK[lvl] < RANK[level]) return;
    const json = `${JSON.stringify({ at: new Date().toISOString(), level: lvl, msg, ...ctx })}\n`;
    write(json);
    if (broken) echo(json);
    else if (RANK[lvl] >= RANK.warn) echo(`coffer: ${lvl === "warn" ? "warning" : "error"}: ${msg}${plain(ctx)}\n`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** A context's short values as ` (key: value, …)`; longer ones are left to the file. */
function plain(ctx: Record<string, unknown> | undefined): string {
  const parts = Object.entries(ctx ?? {})
    .filter(([, v]) => ["string", "number", "boolean"].includes(typeof v) && String(v).length <= 200)
    .map(([k, v]) => `${k}: ${String(v)}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

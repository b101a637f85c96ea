import type { Logger } from "../../application/ports.js";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** One JSON object per line on stderr, so the log is greppable and machine-readable. */
export function consoleLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const emit = (lvl: Exclude<LogLevel, "silent">) => (msg: string, ctx?: Record<string, unknown>) => {
    if (RANK[lvl] < RANK[level]) return;
    write(`${JSON.stringify({ at: new Date().toISOString(), level: lvl, msg, ...ctx })}\n`);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

export function parseLogLevel(value: string | undefined): LogLevel {
  return value && value in RANK ? (value as LogLevel) : "info";
}

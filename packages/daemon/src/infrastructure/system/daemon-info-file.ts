import { join } from "node:path";
import { assertReplaceable, readPrivateFile, removePrivateFile, writePrivateFileAtomic } from "./private-files.js";

export interface DaemonInfo {
  readonly pid: number;
  readonly port: number;
  readonly url: string;
}

const infoFile = (home: string) => join(home, "daemon.json");

/** `<data dir>/daemon.json` tells the CLI where the daemon listens; written atomically, 0600. */
export function writeDaemonInfo(home: string, info: DaemonInfo): void {
  writePrivateFileAtomic(infoFile(home), JSON.stringify(info, null, 2));
}

/** Refuses a daemon.json that is a link or someone else's, at start-up, before anything else runs. */
export function checkDaemonInfoFile(home: string): void {
  assertReplaceable(infoFile(home));
}

/** What daemon.json says, or null when it is missing, unreadable or not ours. Never changes the file. */
export function readDaemonInfo(home: string): Partial<DaemonInfo> | null {
  try {
    const bytes = readPrivateFile(infoFile(home), { tighten: false });
    return bytes ? (JSON.parse(bytes.toString("utf8")) as Partial<DaemonInfo>) : null;
  } catch {
    return null;
  }
}

/** Removes daemon.json when it still names this process (never a link, never another daemon's). */
export function removeDaemonInfo(home: string, pid: number): void {
  if (readDaemonInfo(home)?.pid === pid) removePrivateFile(infoFile(home));
}

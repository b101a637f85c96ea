import { spawn } from "node:child_process";

/** The platform's "open this file" command. */
function opener(file: string): [string, string[]] {
  if (process.platform === "darwin") return ["open", [file]];
  if (process.platform === "win32") return ["cmd", ["/c", "start", "", file]];
  return ["xdg-open", [file]];
}

export interface BrowserHandoff {
  /** Whether a browser command could be started. */
  readonly opened: boolean;
  /** The command tried (for the message when it could not be). */
  readonly command: string;
}

/**
 * Hands a sign-in to the browser through a private file (the daemon's 0600 hand-off file,
 * which forwards to the one-time code): only the file's path goes on the browser's command line,
 * where every local user can read it in /proc — never a code, token or link carrying one
 * (docs/decisions.md, "Hardening II"). The one way Coffer opens a browser.
 */
export function openInBrowser(handoffFile: string): Promise<BrowserHandoff> {
  const [command, args] = opener(handoffFile);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.once("error", () => resolve({ opened: false, command }));
    child.once("spawn", () => {
      child.unref();
      resolve({ opened: true, command });
    });
  });
}

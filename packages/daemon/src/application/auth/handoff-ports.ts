// The private file `coffer open` hands a browser instead of a URL with the login code in it
// (docs/decisions.md, "Hardening II"). Adapter: infrastructure/system/login-handoff-files.ts.

export interface LoginHandoffFiles {
  /** Writes a 0600 file that forwards a browser to this login code; returns its path. */
  write(code: string): string;
  /** Removes the code's file, if any (used, expired, or the daemon is closing). */
  remove(code: string): void;
}

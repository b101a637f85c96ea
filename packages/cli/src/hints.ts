/**
 * How the owner runs this CLI where it was started: `coffer` when installed, `npm run coffer --`
 * from a clone (the root `npm run coffer` and `npm start` set COFFER_CLI_COMMAND). Every command
 * a message names goes through `cmd`, so the hint works where it is printed (issue 22).
 */
export function cliCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.COFFER_CLI_COMMAND?.trim() || "coffer";
}

/** `coffer <args>`, or `npm run coffer -- <args>` in a clone. */
export function cmd(args: string, env: NodeJS.ProcessEnv = process.env): string {
  return `${cliCommand(env)} ${args}`;
}

/** Starting the daemon: `coffer start`, or `npm start` in a clone (it also builds what changed). */
export function startCmd(env: NodeJS.ProcessEnv = process.env): string {
  return cliCommand(env).startsWith("npm run ") ? "npm start" : cmd("start", env);
}

/**
 * Whether a browser could be shown here: macOS and Windows always have a desktop; elsewhere
 * only with an X11 or Wayland display (over SSH there is none, and xdg-open would fail late).
 */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

import { DEFAULT_OPEN_COMMAND, OPEN_COMMAND_META } from "@coffer/protocol";

/**
 * The sign-in command as the owner types it where the daemon runs (`coffer open`, or
 * `npm run coffer -- open` in a clone): the daemon puts it in the page's HTML. Read from the
 * HTML the page came with, never asked of the port later (docs/decisions.md, "First start").
 */
export function openCommand(doc: Document = document): string {
  const meta = doc.querySelector(`meta[name="${OPEN_COMMAND_META}"]`)?.getAttribute("content")?.trim();
  return meta || DEFAULT_OPEN_COMMAND;
}

/** `start` for the same CLI: `coffer start`, or `npm start` in a clone. */
export function startCommand(open: string): string {
  return open.startsWith("npm run ") ? "npm start" : open.replace(/ open$/, " start");
}

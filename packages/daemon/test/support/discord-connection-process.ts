/**
 * A Discord connection in its own process, for the kill -9 test: connects with the cursor in
 * `DISCORD_CURSOR_FILE` (if any), prints `{"ready":true}`, then one `{"event":…}` line per
 * handled event, after writing the cursor to the file (write + rename, as a store would commit).
 * Run with `node --import tsx`. The test SIGKILLs it at a moment it chooses.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { DiscordConnection } from "../../src/infrastructure/discord/discord-connection.js";
import type { DiscordCursor, DiscordInbound } from "../../src/infrastructure/discord/discord-events.js";

const file = process.env.DISCORD_CURSOR_FILE!;
let cursor: DiscordCursor | undefined;
try {
  cursor = JSON.parse(readFileSync(file, "utf8")) as DiscordCursor;
} catch {
  cursor = undefined;
}
let last: DiscordInbound | null = null;
const conn = new DiscordConnection({
  token: process.env.DISCORD_TOKEN!,
  apiRoot: process.env.DISCORD_API_ROOT!,
  identifySpacingMs: 0,
  ...(cursor ? { cursor } : {}),
  onEvent: (event) => {
    last = event;
  },
  onCursor: (next) => {
    writeFileSync(`${file}.tmp`, JSON.stringify(next));
    renameSync(`${file}.tmp`, file);
    if (last) process.stdout.write(`${JSON.stringify({ event: last })}\n`);
    last = null;
  },
});
await conn.start();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

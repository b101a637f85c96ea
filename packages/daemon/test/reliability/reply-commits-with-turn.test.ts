/**
 * Why discord-exactly-once lost a reply after kill -9 (issue 26, i26flake): the turn's
 * completion committed first and the relay queued the reply in the outbox afterwards, in a
 * second transaction. A kill between the two left a turn that reads complete — so restart
 * recovery sent no "restarted while replying" notice — and no reply to deliver.
 *
 * Deterministic: at the very moment the reply's outbox row is written, a second connection
 * reads what a crash right then would leave on disk. The turn must not read complete yet: its
 * completion and its queued reply commit together (or, on a crash, neither does).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { startDiscordRig, type DiscordRig } from "../support/discord-rig.js";

let rig: DiscordRig | null = null;
let restore: (() => void) | null = null;
afterEach(async () => {
  restore?.();
  restore = null;
  await rig?.close();
  rig = null;
});

/**
 * Calls `seen(text)` just before any outbox row is written by any connection of this process
 * (the in-process daemon's), on its statement's `run`. Statements are prepared at start, so this
 * is installed before the daemon starts.
 */
function onOutboxWrite(seen: (text: string) => void): () => void {
  const proto = Database.prototype as unknown as { prepare(sql: string): unknown };
  const prepare = proto.prepare;
  proto.prepare = function (this: unknown, sql: string) {
    const stmt = prepare.call(this, sql) as { run(...args: unknown[]): unknown };
    if (/INSERT INTO channel_outbox/i.test(sql)) {
      const run = stmt.run.bind(stmt);
      stmt.run = (...args: unknown[]) => {
        const params = args[0] as { text?: string } | undefined;
        if (typeof params?.text === "string") seen(params.text);
        return run(...args);
      };
    }
    return stmt;
  };
  return () => {
    proto.prepare = prepare;
  };
}

describe("a channel reply commits with its turn's completion", () => {
  it("when the reply is queued, a crash at that moment leaves the turn unfinished on disk (restart recovery tells the chat)", async () => {
    const onDisk: { text: string; status: string | null }[] = [];
    let dbPath: string | null = null;
    restore = onOutboxWrite((text) => {
      if (!dbPath || !text.startsWith("echo: ")) return;
      // What another process (the daemon after a kill -9) would read: the committed state only.
      const reader = new Database(dbPath, { readonly: true, fileMustExist: true });
      try {
        const row = reader.prepare("SELECT status FROM messages WHERE role = 'assistant' ORDER BY created_at DESC, rowid DESC LIMIT 1").get() as { status: string } | undefined;
        onDisk.push({ text, status: row?.status ?? null });
      } finally {
        reader.close();
      }
    });
    rig = await startDiscordRig();
    dbPath = join(rig.t.home, "coffer.db");
    rig.say("hello");
    await rig.botSays((m) => m.content === "echo: hello");
    expect(onDisk).toEqual([{ text: "echo: hello", status: "streaming" }]);
  });
});

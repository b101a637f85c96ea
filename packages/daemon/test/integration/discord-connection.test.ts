/**
 * The Discord connection (the real @discordjs libraries) against the fake Discord over
 * 127.0.0.1: REST and a real gateway websocket. Nothing is mocked.
 */
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { DiscordConnection, type DiscordConnectionOptions } from "../../src/infrastructure/discord/discord-connection.js";
import { DISCORD_LIMITS, type DiscordCursor, type DiscordInbound, type DiscordMessageEvent } from "../../src/infrastructure/discord/discord-events.js";
import { FakeDiscord, type FakeDiscordUser } from "../fakes/fake-discord.js";

const owner: FakeDiscordUser = { id: "100000000000000001", username: "owner" };

let fake: FakeDiscord | null = null;
const open: DiscordConnection[] = [];

afterEach(async () => {
  for (const c of open.splice(0)) await c.stop();
  await fake?.close();
  fake = null;
});

interface Rig {
  readonly fake: FakeDiscord;
  readonly conn: DiscordConnection;
  readonly events: DiscordInbound[];
  readonly cursors: DiscordCursor[];
  /** Resolves once `n` events were handled. */
  handled(n: number): Promise<DiscordInbound[]>;
}

async function rig(options: Partial<DiscordConnectionOptions> = {}, existing?: FakeDiscord): Promise<Rig> {
  const f = existing ?? (fake = await FakeDiscord.start());
  const events: DiscordInbound[] = [];
  const cursors: DiscordCursor[] = [];
  const handledSignal = new EventEmitter();
  const conn = new DiscordConnection({
    token: f.token,
    apiRoot: f.apiRoot,
    identifySpacingMs: 0,
    onEvent: (e) => {
      events.push(e);
    },
    // The cursor is handed over after each handled event: the signal tests wait on.
    onCursor: (c) => {
      cursors.push(c);
      handledSignal.emit("handled");
    },
    ...options,
  });
  open.push(conn);
  await conn.start();
  return {
    fake: f,
    conn,
    events,
    cursors,
    handled: (n) =>
      new Promise((resolve) => {
        const check = () => {
          if (events.length < n) return;
          handledSignal.off("handled", check);
          resolve(events.slice());
        };
        handledSignal.on("handled", check);
        check();
      }),
  };
}

const texts = (events: DiscordInbound[]) => events.map((e) => (e as DiscordMessageEvent).content);

describe("DiscordConnection against the fake Discord", () => {
  test("identifies with the token on the gateway from GET /gateway/bot and hands a DM over as a typed event", async () => {
    const r = await rig();
    const identify = r.fake.frames.find((f) => f.op === 2)!;
    expect(identify.path).toBe("/gateway");
    expect(identify.d.token).toBe(r.fake.token);
    // Guilds, guild messages, direct messages, message content.
    expect(identify.d.intents).toBe(1 | 512 | 4096 | 32768);
    expect(r.fake.calls.some((c) => c.path === "/gateway/bot" && c.authorization === `Bot ${r.fake.token}`)).toBe(true);

    const said = r.fake.userSays(owner, "hello from the phone");
    const [event] = await r.handled(1);
    expect(event).toEqual({
      kind: "message",
      id: said.id,
      channelId: said.channel_id,
      guildId: null,
      threadParentId: null,
      author: { id: owner.id, username: owner.username },
      content: "hello from the phone",
      attachments: [],
    });
    expect(r.cursors.at(-1)!.lastMessageIds).toEqual({ [said.channel_id]: said.id });
  });

  test("sends, edits and deletes a message with buttons; a tap comes back as a button event and is answered by updating the message", async () => {
    const r = await rig();
    const dm = await r.conn.openDm(owner.id);
    const { id } = await r.conn.send(dm, { content: "Pick one", buttons: [[{ id: "q1:a", label: "Yes", style: "success" }, { id: "q1:b", label: "No" }]] });
    const shown = r.fake.channelMessages(dm)[0]!;
    expect(shown.content).toBe("Pick one");
    expect(shown.components[0].components.map((b: any) => [b.custom_id, b.label, b.style])).toEqual([
      ["q1:a", "Yes", 3],
      ["q1:b", "No", 2],
    ]);

    r.fake.userTaps(owner, id, "q1:b");
    const tap = (await r.handled(1))[0]!;
    expect(tap).toMatchObject({ kind: "button", messageId: id, customId: "q1:b", user: { id: owner.id }, channelId: dm });
    if (tap.kind !== "button") throw new Error("not a button");
    await r.conn.answer(tap, { content: "Answered: No", updateMessage: true });
    expect(r.fake.callbacks).toEqual([{ interactionId: tap.interactionId, type: 7, data: { content: "Answered: No", components: [] } }]);
    // The buttons are gone from the message the owner tapped.
    expect(r.fake.channelMessages(dm)[0]).toMatchObject({ content: "Answered: No", components: [] });

    await r.conn.edit(dm, id, { content: "Pick one (closed)" });
    expect(r.fake.channelMessages(dm)[0]).toMatchObject({ content: "Pick one (closed)", components: [], edits: 2 });
    await r.conn.delete(dm, id);
    expect(r.fake.channelMessages(dm)).toEqual([]);
  });

  test("registers slash commands and hands a command run as a command event with its options", async () => {
    const r = await rig();
    await r.conn.registerCommands([
      { name: "new", description: "Start a new conversation" },
      { name: "model", description: "Choose the model", options: [{ name: "name", description: "Model", type: "string", required: true }] },
    ]);
    const put = r.fake.calls.find((c) => c.method === "PUT")!;
    expect(put.path).toBe(`/applications/${r.fake.applicationId}/commands`);
    expect(r.fake.commands.map((c) => c.name)).toEqual(["new", "model"]);
    expect(r.fake.commands[1].options).toEqual([{ name: "name", description: "Model", type: 3, required: true }]);

    r.fake.userRuns(owner, "model", { name: "opus" });
    const run = (await r.handled(1))[0]!;
    expect(run).toMatchObject({ kind: "command", name: "model", options: { name: "opus" }, user: { id: owner.id } });
    if (run.kind !== "command") throw new Error("not a command");
    await r.conn.answer(run, { content: "Model set", ephemeral: true });
    expect(r.fake.callbacks.at(-1)).toEqual({ interactionId: run.interactionId, type: 4, data: { content: "Model set", components: [], flags: 64 } });
  });

  test("a reply over 2,000 characters goes out in parts Discord accepts, none breaking the code block; one over-long message is refused 50035 as Discord does", async () => {
    const r = await rig();
    const dm = await r.conn.openDm(owner.id);
    const code = Array.from({ length: 150 }, (_, i) => `print(${i})  # ${"c".repeat(20)}`).join("\n");
    const { ids } = await r.conn.sendText(dm, `Here:\n\`\`\`python\n${code}\n\`\`\`\nDone.`);
    const parts = r.fake.channelMessages(dm);
    expect(parts.map((m) => m.id)).toEqual(ids);
    expect(parts.length).toBeGreaterThan(1);
    for (const m of parts) {
      expect([...m.content].length).toBeLessThanOrEqual(2000);
      expect(m.content.split("\n").filter((l) => l.startsWith("```")).length % 2).toBe(0);
    }
    expect(r.fake.calls.filter((c) => c.method === "POST" && c.path.endsWith("/messages")).every((c) => c.status === 200)).toBe(true);

    const refused = await r.conn.send(dm, { content: "x".repeat(2001) }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, code: 50035 });
    expect(String(refused)).not.toContain(r.fake.token);
  });

  test("a 429 with retry_after is waited out by the library's REST and the message still goes out once", async () => {
    const r = await rig();
    const dm = await r.conn.openDm(owner.id);
    const limited: number[] = [];
    r.conn.onRateLimited((l) => limited.push(l.retryAfterMs));
    r.fake.rateLimitNext(2, { retryAfter: 0.05 });
    const started = Date.now();
    await r.conn.send(dm, { content: "after the storm" });
    const posts = r.fake.calls.filter((c) => c.method === "POST" && c.path === `/channels/${dm}/messages`);
    expect(posts.map((c) => c.status)).toEqual([429, 429, 200]);
    expect(limited).toHaveLength(2);
    // Waited at least retry_after for each 429 before trying again.
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(r.fake.channelMessages(dm).map((m) => m.content)).toEqual(["after the storm"]);
  });

  test("a burst of progress edits stays within the channel's edit bucket the fake announces: paced by the library, never a 429", async () => {
    fake = await FakeDiscord.start({ editBucket: { limit: 5, windowMs: 300 } });
    const r = await rig({}, fake);
    const dm = await r.conn.openDm(owner.id);
    const { id } = await r.conn.send(dm, { content: "working…" });
    const started = Date.now();
    await Promise.all(Array.from({ length: 12 }, (_, i) => r.conn.edit(dm, id, { content: `working… step ${i + 1}` })));
    const elapsed = Date.now() - started;
    const edits = fake.calls.filter((c) => c.method === "PATCH");
    expect(edits.map((c) => c.status)).toEqual(Array(12).fill(200));
    // 12 edits at 5 per window need three windows: two full waits.
    expect(elapsed).toBeGreaterThanOrEqual(2 * 300 - 50);
    expect(fake.channelMessages(dm)[0]).toMatchObject({ content: "working… step 12", edits: 12 });
  });

  test("sends a file as a multipart upload and streams an inbound attachment from the CDN", async () => {
    const r = await rig();
    const dm = await r.conn.openDm(owner.id);
    const bytes = Buffer.from("%PDF-1.4 fake report\n");
    await r.conn.send(dm, { content: "the report", files: [{ name: "report.pdf", data: bytes, contentType: "application/pdf" }] });
    const upload = r.fake.calls.find((c) => c.files.length > 0)!;
    expect(upload.body.content).toBe("the report");
    expect(upload.files).toEqual([{ name: "report.pdf", contentType: "application/pdf", bytes }]);
    expect(r.fake.channelMessages(dm)[0]!.attachments.map((a) => a.filename)).toEqual(["report.pdf"]);

    const photo = Buffer.alloc(300_000, 7);
    const attachment = r.fake.addFile("photo.jpg", photo, "image/jpeg");
    r.fake.userSays(owner, "look", { attachments: [attachment] });
    const event = (await r.handled(1))[0]!;
    if (event.kind !== "message") throw new Error("not a message");
    expect(event.attachments).toEqual([{ id: attachment.id, filename: "photo.jpg", size: photo.length, contentType: "image/jpeg", url: attachment.url }]);
    const chunks: Buffer[] = [];
    for await (const chunk of await r.conn.download(event.attachments[0]!.url)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(photo)).toBe(true);
    await expect(r.conn.download("http://169.254.169.254/latest")).rejects.toThrow(/refusing/);

    // Over the upload limit the adapter declares, Discord (and the fake) refuse with 40005.
    const big = Buffer.alloc(DISCORD_LIMITS.uploadBytes + 1);
    const refused = await r.conn.send(dm, { content: "too big", files: [{ name: "big.bin", data: big }] }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 413, code: 40005 });
  });

  test("a forced reconnect (op 7) resumes on the resume URL and replays what was said meanwhile, exactly once", async () => {
    const r = await rig();
    r.fake.userSays(owner, "one");
    await r.handled(1);
    const closesBefore = r.fake.closes.length;
    r.fake.forceReconnect();
    // The client closes with 4200 to resume; the session stays, its socket is gone.
    await r.fake.until(() => r.fake.closes.length > closesBefore);
    expect(r.fake.closes.at(-1)).toBe(4200);
    r.fake.userSays(owner, "two");
    r.fake.userSays(owner, "three");
    await r.handled(3);
    const resume = r.fake.frames.find((f) => f.op === 6)!;
    expect(resume.path).toBe("/resume");
    expect(resume.d.session_id).toBe(r.fake.sessions[0]!.id);
    expect(r.fake.frames.filter((f) => f.op === 2)).toHaveLength(1);
    r.fake.userSays(owner, "four");
    await r.handled(4);
    expect(texts(r.events)).toEqual(["one", "two", "three", "four"]);
  });

  test("a killed session (INVALID_SESSION, not resumable) re-identifies and fetches from history what the gateway never delivered, exactly once", async () => {
    const r = await rig();
    r.fake.userSays(owner, "before");
    await r.handled(1);
    r.fake.killSessions();
    // No live session: Discord's gateway would never deliver this one; only history has it.
    r.fake.userSays(owner, "during the gap");
    await r.fake.until(() => r.fake.frames.filter((f) => f.op === 2).length === 2);
    await r.handled(2);
    r.fake.userSays(owner, "after");
    await r.handled(3);
    expect(texts(r.events)).toEqual(["before", "during the gap", "after"]);
    const history = r.fake.calls.find((c) => c.method === "GET" && c.path.endsWith("/messages"))!;
    expect(history.query.after).toBe((r.events[0] as DiscordMessageEvent).id);
  });

  test("a restart from the persisted cursor (kill -9 stand-in) resumes the old session: nothing lost, nothing repeated", async () => {
    const first = await rig();
    first.fake.userSays(owner, "handled before the restart");
    await first.handled(1);
    const persisted = first.cursors.at(-1)!;
    expect(persisted.session?.sequence).toBeGreaterThan(1);
    // The daemon goes away without ending the session (a resumable close, as a killed process leaves it).
    await first.conn.stop({ keepSession: true });
    open.splice(open.indexOf(first.conn), 1);
    first.fake.userSays(owner, "said while the daemon was down");

    // The cursor an interrupted write would leave: the session sequence from before the first
    // message was handled, but that message's id already recorded. The replay includes it; the
    // id check drops it.
    const stale: DiscordCursor = { ...persisted, session: { ...persisted.session!, sequence: 1 } };
    const second = await rig({ cursor: stale }, first.fake);
    await second.handled(1);
    second.fake.userSays(owner, "after the restart");
    await second.handled(2);
    expect(texts(second.events)).toEqual(["said while the daemon was down", "after the restart"]);
    expect(second.fake.frames.filter((f) => f.op === 2)).toHaveLength(1);
    expect(second.fake.frames.filter((f) => f.op === 6).at(-1)!.d).toMatchObject({ session_id: persisted.session!.id, seq: 1 });
  });

  test("kill -9 of the process holding the connection: a new one resumes from the cursor it left, nothing lost, nothing repeated", async () => {
    fake = await FakeDiscord.start();
    const dir = mkdtempSync(join(tmpdir(), "coffer-discord-"));
    const cursorFile = join(dir, "cursor.json");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../support/discord-connection-process.ts", import.meta.url))], {
        env: { ...process.env, DISCORD_TOKEN: fake.token, DISCORD_API_ROOT: fake.apiRoot, DISCORD_CURSOR_FILE: cursorFile },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = new Promise<string | number>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code ?? -1)));
      const lines = new EventEmitter();
      const seen: any[] = [];
      createInterface({ input: child.stdout! }).on("line", (line) => {
        seen.push(JSON.parse(line));
        lines.emit("line");
      });
      const line = (check: (l: any) => boolean) =>
        new Promise<void>((resolve) => {
          const test = () => seen.some(check) && (lines.off("line", test), resolve());
          lines.on("line", test);
          test();
        });
      await line((l) => l.ready);
      fake.userSays(owner, "handled by the killed process");
      await line((l) => l.event?.content === "handled by the killed process");
      child.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");
      // No close frame from a killed process: the session stays resumable.
      await fake.until(() => fake!.closes.length === 1);
      expect(fake.closes).toEqual([1006]);
      fake.userSays(owner, "said while it was dead");

      const cursor = JSON.parse(readFileSync(cursorFile, "utf8")) as DiscordCursor;
      const next = await rig({ cursor }, fake);
      await next.handled(1);
      fake.userSays(owner, "after");
      await next.handled(2);
      expect(texts(next.events)).toEqual(["said while it was dead", "after"]);
      expect(fake.frames.filter((f) => f.op === 2)).toHaveLength(1);
      expect(fake.frames.filter((f) => f.op === 6).at(-1)!.d.session_id).toBe(cursor.session!.id);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a 100-message burst with a forced reconnect and a killed session in the middle arrives whole, in order, once", async () => {
    const r = await rig();
    const sent: string[] = [];
    const say = (from: number, to: number) => {
      for (let i = from; i < to; i++) sent.push(r.fake.userSays(owner, `m${i}`).content);
    };
    say(0, 30);
    r.fake.forceReconnect();
    say(30, 60);
    await r.handled(60);
    r.fake.killSessions();
    say(60, 80);
    await r.fake.until(() => r.fake.frames.filter((f) => f.op === 2).length === 2);
    say(80, 100);
    const all = await r.handled(100);
    expect(texts(all)).toEqual(sent);
    expect(new Set(all.map((e) => (e as DiscordMessageEvent).id)).size).toBe(100);
  });

  test("a restart after the session expired: the RESUME is refused, a fresh IDENTIFY follows and the downtime is read from history once", async () => {
    const first = await rig();
    first.fake.userSays(owner, "before the downtime");
    await first.handled(1);
    const persisted = first.cursors.at(-1)!;
    await first.conn.stop({ keepSession: true });
    open.splice(open.indexOf(first.conn), 1);
    // Down too long: Discord has dropped the session; what is said now only history keeps.
    first.fake.killSessions();
    first.fake.userSays(owner, "during the downtime");

    const second = await rig({ cursor: persisted }, first.fake);
    await second.handled(1);
    second.fake.userSays(owner, "back");
    await second.handled(2);
    expect(texts(second.events)).toEqual(["during the downtime", "back"]);
    expect(second.fake.frames.filter((f) => f.op === 6)).toHaveLength(1);
    expect(second.fake.frames.filter((f) => f.op === 2)).toHaveLength(2);
  });

  test("a socket closed with a resumable code (a gateway restart) resumes without re-identifying", async () => {
    const r = await rig();
    r.fake.userSays(owner, "a");
    await r.handled(1);
    r.fake.dropSockets(4000);
    r.fake.userSays(owner, "b");
    await r.handled(2);
    expect(texts(r.events)).toEqual(["a", "b"]);
    expect(r.fake.frames.filter((f) => f.op === 6)).toHaveLength(1);
    expect(r.fake.frames.filter((f) => f.op === 2)).toHaveLength(1);
  });

  test("heartbeats at the interval HELLO gives and each is acknowledged", async () => {
    fake = await FakeDiscord.start({ heartbeatIntervalMs: 40 });
    await rig({}, fake);
    const beats = await fake.until(() => fake!.frames.filter((f) => f.op === 1).length >= 3 && fake!.frames.filter((f) => f.op === 1));
    // Each beat carries the last sequence seen (READY is 1).
    expect(beats.at(-1)!.d).toBe(1);
  });

  test("a wrong token is refused before any gateway connection, and no error carries a token", async () => {
    fake = await FakeDiscord.start();
    const wrong = "wrong-token.secret-part.zzz";
    const conn = new DiscordConnection({ token: wrong, apiRoot: fake.apiRoot, identifySpacingMs: 0, onEvent: () => undefined });
    const error = (await conn.start().then(
      () => null,
      (e: unknown) => e as Error,
    ))!;
    expect(error).toMatchObject({ status: 401 });
    for (const text of [String(error), error.message, error.stack ?? "", JSON.stringify(error)]) {
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(fake.token);
    }
    expect(fake.frames).toEqual([]);
  });

  test("a message in a thread names the thread's parent channel", async () => {
    const r = await rig();
    const channel = r.fake.guildChannel("700000000000000001");
    const thread = r.fake.thread(channel, "refactor");
    r.fake.userSays(owner, "in the thread", { channelId: thread });
    const [event] = await r.handled(1);
    expect(event).toMatchObject({ kind: "message", channelId: thread, guildId: "700000000000000001", threadParentId: channel });
    // A plain guild channel has no parent.
    r.fake.userSays(owner, "in the channel", { channelId: channel });
    expect((await r.handled(2))[1]).toMatchObject({ channelId: channel, guildId: "700000000000000001", threadParentId: null });
  });

  test("a thread opened before a restart is still known as a thread after it", async () => {
    fake = await FakeDiscord.start();
    const channel = fake.guildChannel("700000000000000001");
    // THREAD_CREATE goes out while no connection is there to see it.
    const thread = fake.thread(channel, "older");
    const r = await rig({}, fake);
    r.fake.userSays(owner, "still a thread", { channelId: thread });
    expect((await r.handled(1))[0]).toMatchObject({ channelId: thread, threadParentId: channel });
  });
});

/**
 * Discord threads as conversations (issue 26): a text channel of a server that holds only the
 * paired owner and the bot is served; each thread in it is its own bound conversation; /new and
 * /open in the channel open threads; anyone else in the server is ignored and counted; a server
 * with a third member is refused. A real daemon (real SQLite, real HTTP), the real @discordjs
 * libraries against our fake Discord, the scripted agent; the last test kills the daemon process.
 */
import { rm } from "node:fs/promises";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { FakeDiscord, type FakeMessage } from "../fakes/fake-discord.js";
import { acceptance } from "../support/acceptance.js";
import { DISCORD_OWNER, DISCORD_STRANGER, startDiscordRig, type DiscordRig } from "../support/discord-rig.js";
import { ApiClient } from "../support/http-client.js";
import { script } from "../support/scripted-agent.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";

const SPEC = "026-second-platform";
const CROWDED = "I only work in a server with just you and me.";
const SERVED = "Ready: each thread in this channel is its own conversation";

let rig: DiscordRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

type Binding = { chat_id: string; thread_id?: string } | null;
async function conversations(api: ApiClient): Promise<{ id: string; title: string; channel_binding: Binding }[]> {
  return (await api.get("/chat/conversations")).body.conversations;
}

/** A server of the owner's (and `others`), its text channel, and helpers to talk there. */
function server(r: DiscordRig, others: { id: string; username: string }[] = []) {
  const { fake } = r;
  const guild = fake.addGuild(DISCORD_OWNER, others);
  const channel = fake.guildChannel(guild);
  const botIn = (channelId: string): FakeMessage[] => fake.channelMessages(channelId).filter((m) => m.author.id === fake.bot.id);
  const place = {
    guild,
    channel,
    botIn,
    botSaysIn: (channelId: string, match: (m: FakeMessage) => boolean) => fake.until(() => botIn(channelId).find(match)),
    /** The owner (or `from`) writes in the channel, or in one of its threads. */
    say: (text: string, where = channel, from = DISCORD_OWNER) => fake.userSays(from, text, { channelId: where }),
    /** The owner runs a slash command in the channel (or a thread). */
    run: (name: string, text?: string, where = channel) => fake.userRuns(DISCORD_OWNER, name, text ? { text } : {}, { channelId: where }),
    /** /new in the channel: a thread opens, bound to a fresh conversation; its id. */
    async newThread(): Promise<string> {
      const before = fake.threadsOf(channel).length;
      place.run("new");
      const thread = await fake.until(() => fake.threadsOf(channel)[before]);
      await place.botSaysIn(thread, (m) => m.content.startsWith("🆕 New conversation with"));
      return thread;
    },
  };
  return place;
}

/** The owner's first words in the channel: the server is counted and served (one line), and the words reach the agent. */
async function served(r: DiscordRig) {
  const s = server(r);
  s.say("hello channel");
  await s.botSaysIn(s.channel, (m) => m.content.startsWith(SERVED));
  await s.botSaysIn(s.channel, (m) => m.content.includes("echo: hello channel"));
  return s;
}

describe("discord threads as conversations", () => {
  acceptance(SPEC, "each topic of a forum group holding only the owner and the bot (or thread of a chosen Discord channel) is its own bound conversation; /new opens a topic; anyone else is ignored and counted", async () => {
    rig = await startDiscordRig();
    const r = rig;
    const { fake, t } = r;
    const s = await served(r);
    // Counted through the channel's server: two members, the owner and the bot.
    expect(fake.calls.some((c) => c.method === "GET" && c.path === `/guilds/${s.guild}` && c.query.with_counts === "true")).toBe(true);
    expect(s.botIn(s.channel).filter((m) => m.content.startsWith(SERVED))).toHaveLength(1);

    const a = await s.newThread();
    await s.botSaysIn(s.channel, (m) => m.content.startsWith("🆕 Opened a new thread"));
    const b = await s.newThread();
    expect(a).not.toBe(b);
    expect(fake.channelName(a)).toBe("New conversation");
    const created = fake.calls.find((c) => c.method === "POST" && c.path === `/channels/${s.channel}/threads`)!;
    expect(created.body).toMatchObject({ name: "New conversation", type: 11, auto_archive_duration: 10080 });

    // Thread A's turn holds at a gate while thread B's runs to its end: two conversations at once.
    const convA = (await conversations(t.api)).find((c) => c.channel_binding?.thread_id === a)!;
    const subA = await t.subscribe(convA.id);
    s.say(script({ repeat: 6, text: "alpha ", perSecond: 20 }, { gate: "thread-a" }, { text: " alpha done" }), a);
    await subA.waitFor((e) => e.type === "text_delta");
    // A's progress message opens in thread A (and is edited and deleted there, below).
    const progressA = await s.botSaysIn(a, (m) => m.content.startsWith("⏳ Working"));
    s.say("beta question", b);
    await s.botSaysIn(b, (m) => m.content.includes("echo: beta question"));
    expect(s.botIn(a).some((m) => m.content.includes("beta"))).toBe(false);
    t.scripted.gates.open("thread-a");
    await s.botSaysIn(a, (m) => m.content.includes("alpha done"));
    subA.close();
    expect(s.botIn(b).some((m) => m.content.includes("alpha"))).toBe(false);
    expect(s.botIn(s.channel).some((m) => m.content.includes("alpha") || m.content.includes("beta"))).toBe(false);
    // The progress message lived in its thread: every edit and delete named the thread, none missed.
    await fake.until(() => !s.botIn(a).some((m) => m.id === progressA.id));
    const touched = fake.calls.filter((c) => (c.method === "PATCH" || c.method === "DELETE") && c.path.includes("/messages/"));
    expect(touched.some((c) => c.method === "DELETE" && c.path === `/channels/${a}/messages/${progressA.id}`)).toBe(true);
    expect(touched.filter((c) => c.status >= 400)).toEqual([]);

    // Two conversations, each bound to its own thread of the channel.
    const bound = (await conversations(t.api)).filter((c) => c.channel_binding?.chat_id === s.channel && c.channel_binding.thread_id);
    expect(bound.map((c) => c.channel_binding!.thread_id).sort()).toEqual([a, b].sort());
    // The thread took its conversation's title from the first message.
    await fake.until(() => fake.channelName(b) === "beta question");
    expect(fake.calls.some((c) => c.method === "PATCH" && c.path === `/channels/${b}` && c.body?.name === "beta question")).toBe(true);

    // /status run in a thread speaks of that thread's conversation.
    s.run("status", undefined, b);
    await s.botSaysIn(b, (m) => m.content.startsWith("📋 beta question"));

    // A stranger writing in the channel and in a thread is ignored and counted: no reply, no turn.
    const strangersBefore = (await t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored as number;
    const turns = t.scripted.turns.length;
    const inA = s.botIn(a).length;
    const inChannel = s.botIn(s.channel).length;
    s.say("stranger in the channel", s.channel, DISCORD_STRANGER);
    s.say("stranger in a thread", a, DISCORD_STRANGER);
    // Events are handled in order: once the owner's later message is answered, both were.
    s.say("after the strangers", b);
    await s.botSaysIn(b, (m) => m.content.includes("echo: after the strangers"));
    expect(t.scripted.turns.length).toBe(turns + 1);
    expect(s.botIn(a).length).toBe(inA);
    expect(s.botIn(s.channel).length).toBe(inChannel);
    expect((await t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored).toBe(strangersBefore + 2);
    expect(JSON.stringify((await t.api.get("/audit")).body)).not.toContain("stranger in");

    // Discord does not tell the bot of a join (that takes a privileged intent): a member who
    // joined and speaks makes the count stale, and the owner's next message finds the server crowded.
    fake.addMember(s.guild, DISCORD_STRANGER);
    s.say("i joined", a, DISCORD_STRANGER);
    s.say("anyone there?", a);
    await s.botSaysIn(s.channel, (m) => m.content === CROWDED);
    s.say("hello?", b);

    // The DM keeps working as before (and, handled in order, shows nothing above reached the agent).
    r.say("from the dm");
    await r.botSays((m) => m.content.includes("echo: from the dm"));
    expect(t.scripted.turns.length).toBe(turns + 2);
    expect(s.botIn(a).some((m) => m.content.includes("anyone there?"))).toBe(false);
    expect(s.botIn(s.channel).filter((m) => m.content === CROWDED)).toHaveLength(1);
  });

  test("a server with a third member is refused in one line and nothing reaches the agent", async () => {
    rig = await startDiscordRig();
    const r = rig;
    const s = server(r, [DISCORD_STRANGER]);
    s.say("hi there");
    await s.botSaysIn(s.channel, (m) => m.content === CROWDED);
    s.say("anyone?");
    r.say("dm probe");
    await r.botSays((m) => m.content.includes("echo: dm probe"));
    expect(r.t.scripted.turns).toHaveLength(1);
    expect(r.t.scripted.turns[0]!.text).toContain("dm probe");
    expect(s.botIn(s.channel).map((m) => m.content)).toEqual([CROWDED]);
    expect(r.fake.threadsOf(s.channel)).toEqual([]);
  });

  test("/open in the channel continues a conversation in a thread of its own", async () => {
    rig = await startDiscordRig();
    const r = rig;
    const { fake, t } = r;
    r.say("dm talk");
    await r.botSays((m) => m.content.includes("echo: dm talk"));
    const s = await served(r);
    s.run("list");
    await s.botSaysIn(s.channel, (m) => /^\d\. dm talk/m.test(m.content));
    const n = /^(\d)\. dm talk/m.exec(s.botIn(s.channel).find((m) => /^\d\. dm talk/m.test(m.content))!.content)![1]!;
    s.run("open", n);
    await s.botSaysIn(s.channel, (m) => m.content === "Opened “dm talk” in a thread of its own.");
    const thread = fake.threadsOf(s.channel)[0]!;
    expect(fake.channelName(thread)).toBe("dm talk");
    await s.botSaysIn(thread, (m) => m.content.startsWith("Continuing “dm talk”"));
    s.say("more talk", thread);
    await s.botSaysIn(thread, (m) => m.content.includes("echo: more talk"));
    const conv = (await conversations(t.api)).find((c) => c.title === "dm talk")!;
    // The page names it as Discord does: a thread in a channel, never a "topic" in a "group".
    expect(conv.channel_binding).toMatchObject({ chat_id: s.channel, thread_id: thread, thread_noun: "thread", place_noun: "channel" });
    // Opening it again points at its thread instead of opening a second one.
    s.run("open", n);
    await s.botSaysIn(s.channel, (m) => m.content.includes("already has its thread in this channel"));
    expect(fake.threadsOf(s.channel)).toHaveLength(1);

    // A title longer than Discord's 100 characters names its thread cut short, never refused.
    const other = (await conversations(t.api)).find((c) => c.title === "hello channel")!;
    expect((await t.api.patch(`/chat/conversations/${other.id}`, { title: `${"wide ".repeat(36)}end` })).status).toBe(200);
    s.run("list");
    const listed = await s.botSaysIn(s.channel, (m) => /^\d\. wide/m.test(m.content));
    s.run("open", /^(\d)\. wide/m.exec(listed.content)![1]!);
    await s.botSaysIn(s.channel, (m) => m.content.startsWith("Opened “wide"));
    const name = fake.channelName(fake.threadsOf(s.channel)[1]!)!;
    expect([...name]).toHaveLength(100);
    expect(name.endsWith("…")).toBe(true);
  });

  test("without the right to open threads, /new says what to grant and loses nothing; granted, it works", async () => {
    rig = await startDiscordRig();
    const r = rig;
    const { fake, t } = r;
    const s = await served(r);
    const before = (await conversations(t.api)).length;
    fake.denyThreads = true;
    s.run("new");
    const line = await s.botSaysIn(s.channel, (m) => m.content.startsWith("⚠️ I could not open a thread"));
    expect(line.content).toContain("the bot lacks a permission there (403, code 50013)");
    expect(line.content).toContain("Create Public Threads");
    expect(line.content).not.toMatch(/topic|admin/i);
    expect(fake.threadsOf(s.channel)).toEqual([]);
    expect((await conversations(t.api)).length).toBe(before);
    // The channel's own conversation goes on.
    s.say("still here");
    await s.botSaysIn(s.channel, (m) => m.content.includes("echo: still here"));
    fake.denyThreads = false;
    const thread = await s.newThread();
    expect((await conversations(t.api)).find((c) => c.channel_binding?.thread_id === thread)).toBeTruthy();
  });

  test("a question's option tapped in a thread answers it; Stop tapped in a thread stops that thread's turn", async () => {
    rig = await startDiscordRig();
    const r = rig;
    const { fake, t } = r;
    const s = await served(r);
    const a = await s.newThread();
    const question = { header: "Deploy", text: "Where to?", options: [{ label: "staging", description: "" }, { label: "prod", description: "" }], multi_select: false, allow_free_text: true };
    s.say(script({ ask: { questions: [question] } }, { text: " — done" }), a);
    const asked = await s.botSaysIn(a, (m) => m.content.startsWith("❓ [Deploy] Where to?") && m.components.length > 0);
    const prod = asked.components.flatMap((row: any) => row.components).find((b: any) => b.label === "prod");
    fake.userTaps(DISCORD_OWNER, asked.id, prod.custom_id);
    const done = await s.botSaysIn(a, (m) => m.content.includes("— done"));
    expect(done.content).toContain('answers: [{"selected":["prod"]}]');
    // The question's message, in its thread, lost its buttons and says the answer.
    await fake.until(() => asked.components.length === 0);
    expect(asked.content).toContain("prod");

    // Stop under the progress message of a thread's running turn.
    s.say(script({ repeat: 6, text: "thinking ", perSecond: 10 }, { hang: true }), a);
    const progress = await s.botSaysIn(a, (m) => m.content.startsWith("⏳") && m.components.length > 0);
    const stop = progress.components.flatMap((row: any) => row.components)[0];
    // A stranger's tap in the thread is refused to them alone and counted; the turn runs on.
    const strangers = (await t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored as number;
    const refused = fake.userTaps(DISCORD_STRANGER, progress.id, stop.custom_id);
    await fake.until(() => fake.callbacks.find((c) => c.interactionId === refused));
    expect(fake.callbacks.find((c) => c.interactionId === refused)!.data).toMatchObject({ content: "These buttons answer to this bot's owner only.", flags: 64 });
    expect((await t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored).toBe(strangers + 1);
    const conv = (await conversations(t.api)).find((c) => c.channel_binding?.thread_id === a)!;
    expect((await t.api.get(`/chat/conversations/${conv.id}`)).body.running).toBe(true);
    fake.userTaps(DISCORD_OWNER, progress.id, stop.custom_id);
    await s.botSaysIn(a, (m) => m.content.startsWith("⏹ Stopped after"));
    expect(fake.callbacks.some((c) => c.data?.content === "⏹ Stopping…")).toBe(true);
    // The progress message went from its thread, Stop and all.
    await fake.until(() => !s.botIn(a).some((m) => m.id === progress.id));
  });
});

describe("discord threads across kill -9", () => {
  let home: string | null = null;
  let fake: FakeDiscord | null = null;
  let daemon: DaemonProcess | null = null;
  afterAll(async () => {
    daemon?.child.kill("SIGKILL");
    await fake?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  test("a thread-bound conversation keeps its binding, and a reply waiting in the outbox reaches its thread exactly once", async () => {
    home = await makeHome();
    fake = await FakeDiscord.start();
    const f = fake;
    const start = async () => {
      const d = await spawnDaemon(home!, { COFFER_DISCORD_API_ROOT: f.apiRoot, COFFER_TEST_FAST_CHANNELS: "1", COFFER_WEB_ROOT: "none" });
      daemon = d;
      return { d, api: new ApiClient(d.url, d.token) };
    };
    let { d, api } = await start();
    await api.put("/credentials/dc-bot", { secret: f.token });
    const channel = (await api.post("/channels", { kind: "discord", name: "discord", credentials: { bot_token: "dc-bot" }, default_agent: "scripted" })).body;
    await f.until(() => f.sessions.some((s) => s.socket !== null));
    const dm = f.dmChannel(DISCORD_OWNER);
    const code = (await api.post(`/channels/${channel.id}/pairing-code`)).body.code as string;
    f.userSays(DISCORD_OWNER, code);
    await f.until(() => f.channelMessages(dm).some((m) => m.content.startsWith("Paired.")));
    const guild = f.addGuild(DISCORD_OWNER);
    const text = f.guildChannel(guild);
    const botIn = (id: string) => f.channelMessages(id).filter((m) => m.author.id === f.bot.id).map((m) => m.content);
    f.userSays(DISCORD_OWNER, "hello", { channelId: text });
    await f.until(() => botIn(text).some((m) => m.startsWith(SERVED)));
    f.userRuns(DISCORD_OWNER, "new", {}, { channelId: text });
    const thread = await f.until(() => f.threadsOf(text)[0]);
    await f.until(() => botIn(thread).some((m) => m.startsWith("🆕 New conversation")));

    try {
      // The reply is posted but its answer is lost, again and again: the row stays in the outbox.
      f.failMessagesIn(thread, "lose");
      f.userSays(DISCORD_OWNER, "waiting reply", { channelId: thread });
      const lost = await f.until(() => f.calls.find((c) => c.method === "POST" && c.path === `/channels/${thread}/messages` && c.status === 503 && String(c.body?.content).includes("echo: waiting reply")));
      d.child.kill("SIGKILL");
      await d.exited;
      f.failMessagesIn(thread, null);
      ({ d, api } = await start());
      // Resent under the same nonce after the restart: Discord hands back the first message.
      await f.until(() => f.calls.some((c) => c.method === "POST" && c.path === `/channels/${thread}/messages` && c.status === 200 && c.body?.nonce === lost.body.nonce));
      expect(botIn(thread).filter((m) => m.includes("echo: waiting reply"))).toHaveLength(1);
      expect(botIn(text).some((m) => m.includes("waiting reply"))).toBe(false);

      // The binding held: the thread still talks to its conversation.
      f.userSays(DISCORD_OWNER, "after restart", { channelId: thread });
      await f.until(() => botIn(thread).some((m) => m.includes("echo: after restart")));
      const convs = await conversations(api);
      const bound = convs.filter((c) => c.channel_binding?.thread_id === thread);
      expect(bound).toHaveLength(1);
      expect(bound[0]!.channel_binding).toMatchObject({ chat_id: text, thread_id: thread });
      const messages = (await api.get(`/chat/conversations/${bound[0]!.id}/messages`)).body.messages as { role: string; content: { text?: string }[] }[];
      expect(messages.filter((m) => m.role === "user").map((m) => m.content.map((b) => b.text ?? "").join(""))).toEqual(["waiting reply", "after restart"]);
    } catch (err) {
      console.error(d.stderr());
      throw err;
    }
  }, 60_000);
});

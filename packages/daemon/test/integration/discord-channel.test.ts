/**
 * Discord as a channel of kind "discord" (issue 26): a real daemon (real SQLite, real HTTP), the
 * real @discordjs libraries against our fake Discord (REST + gateway websocket on 127.0.0.1) and
 * the scripted agent — the Telegram channel's scenarios, on the second platform.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHAT_COMMANDS } from "../../src/application/channels/chat-commands.js";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { DISCORD_OWNER, DISCORD_STRANGER, startDiscordRig, type DiscordRig } from "../support/discord-rig.js";

const SPEC = "026-second-platform";
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
let rig: DiscordRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe("discord channel", () => {
  acceptance(SPEC, "Discord pairs by a code sent in a DM; a stranger is ignored and counted", async () => {
    rig = await startDiscordRig({}, { pair: false });
    const { fake, t } = rig;
    const channel = (await t.api.get(`/channels/${rig.channelId}`)).body;
    expect(channel).toMatchObject({ kind: "discord", bot: { username: fake.bot.username }, status: { state: "polling" } });
    // A stranger's words and even a stranger's guess at the code: no reply, no turn, only counted.
    const code = (await t.api.post(`/channels/${rig.channelId}/pairing-code`)).body.code as string;
    fake.userSays(DISCORD_STRANGER, "hello bot");
    fake.userSays(DISCORD_STRANGER, "000000");
    // The gateway hands events over in order: once the owner is paired, both were handled.
    rig.say(code);
    await rig.botSays((m) => m.content.startsWith("Paired."));
    const after = (await t.api.get(`/channels/${rig.channelId}`)).body;
    expect(after).toMatchObject({ owner: { name: DISCORD_OWNER.username } });
    expect(after.counts.strangers_ignored).toBe(2);
    expect(fake.channelMessages(fake.dmChannel(DISCORD_STRANGER)).filter((m) => m.author.id === fake.bot.id)).toEqual([]);
    // The owner talks to the agent from the DM; the answer comes back there.
    rig.say("hello from discord");
    await rig.botSays((m) => m.content.includes("echo: hello from discord"));
    expect(t.scripted.turns).toHaveLength(1);
  });
});

describe("discord channel: commands, relay, splitting, files", () => {
  acceptance(SPEC, "Discord offers the same commands as slash commands", async () => {
    rig = await startDiscordRig();
    const { fake } = rig;
    // Registered once the owner paired: global slash commands, the channel's own list.
    await fake.until(() => fake.commands.length > 0);
    expect(fake.commands.map((c) => c.name)).toEqual(CHAT_COMMANDS.map((c) => c.command));
    expect(fake.commands.find((c) => c.name === "open")?.options).toEqual([expect.objectContaining({ name: "text", type: 3, required: false })]);
    // A slash command is answered at once (Discord's 3 s), privately; its answer comes as a message.
    const help = fake.userRuns(DISCORD_OWNER, "help");
    await rig.botSays((m) => m.content.startsWith("Write anything to talk to your agent"));
    expect(fake.callbacks.find((c) => c.interactionId === help)).toMatchObject({ type: 4, data: { content: "/help", flags: 64 } });
    // With words: /model default, as typed.
    fake.userRuns(DISCORD_OWNER, "model", { text: "default" });
    await rig.botSays((m) => /model/i.test(m.content) && !m.content.startsWith("Write anything") && !m.content.startsWith("Paired."));
    // /new starts a fresh conversation: the next message runs there.
    rig.say("first");
    await rig.botSays((m) => m.content.includes("echo: first"));
    fake.userRuns(DISCORD_OWNER, "new");
    await rig.botSays((m) => /new conversation|fresh/i.test(m.content));
    rig.say("second");
    await rig.botSays((m) => m.content.includes("echo: second"));
    expect((await rig.t.api.get("/chat/conversations")).body.conversations).toHaveLength(2);
    // A stranger's command is not run (counted; nothing in the owner's DM).
    const before = rig.botMessages().length;
    fake.userRuns(DISCORD_STRANGER, "new");
    rig.say("third");
    await rig.botSays((m) => m.content.includes("echo: third"));
    expect((await rig.t.api.get("/chat/conversations")).body.conversations).toHaveLength(2);
    expect(rig.botMessages().length).toBe(before + 1);
  });

  acceptance(SPEC, "a Discord message goes through the one queue and the turn's progress is edited within Discord's rate limits", async () => {
    // The fake enforces one edit per second per channel, with a 429 beyond it, as Discord's bucket would.
    rig = await startDiscordRig({ channelTimings: { backoffMs: [20], editIntervalMs: 300 } }, { fake: { editBucket: { limit: 1, windowMs: 1000 } } });
    const { fake, t } = rig;
    rig.say(script({ tool: { id: "t1", name: "Bash", input: { command: "npm test" }, output: "ok" } }, { repeat: 900, text: "x", perSecond: 200 }, { text: "FINAL" }));
    // Sent while the first runs: queued behind it in the one queue, then run in order.
    rig.say("next in line");
    const progress = await rig.botSays((m) => m.content.startsWith("⏳ Working"));
    expect(progress.content).toContain("Bash · npm test");
    await rig.botSays((m) => m.content.endsWith("FINAL") && !m.content.startsWith("⏳"));
    await rig.botSays((m) => m.content.includes("echo: next in line"));
    const edits = fake.calls.filter((c) => c.method === "PATCH" && c.path.endsWith(`/messages/${progress.id}`));
    expect(edits.length).toBeGreaterThan(1);
    // Never faster than the platform allows: not one edit was refused.
    expect(edits.filter((c) => c.status === 429)).toEqual([]);
    expect(t.scripted.turns.map((turn) => turn.text ?? "").at(-1)).toContain("next in line");
  });

  acceptance(SPEC, "a long reply is split at 2,000 characters without breaking a code block", async () => {
    rig = await startDiscordRig();
    const code = Array.from({ length: 120 }, (_, i) => `const line${i} = "${"v".repeat(20)}";`).join("\n");
    const reply = `Here is the module:\n\n\`\`\`ts\n${code}\n\`\`\`\n\nThat is all.`;
    rig.say(script({ text: reply }));
    await rig.botSays((m) => m.content.includes("That is all."));
    const parts = rig.botMessages().filter((m) => !m.content.startsWith("Paired.") && !m.content.startsWith("⏳"));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect([...part.content].length).toBeLessThanOrEqual(2000);
      // Every part is markdown on its own: its fences come in pairs.
      expect((part.content.match(/^```/gm) ?? []).length % 2).toBe(0);
    }
    // Nothing lost: the code lines all arrived, in order.
    const joined = parts.map((p) => p.content).join("\n");
    for (let i = 0; i < 120; i += 17) expect(joined).toContain(`const line${i} =`);
  });

  acceptance(SPEC, "Discord attachments go both ways through the attachment model", async () => {
    rig = await startDiscordRig();
    const { fake, t } = rig;
    // In: a photo and a document on one message reach the agent as the message's attachments.
    const photo = fake.addFile("cat.png", PNG_1X1, "image/png");
    const doc = fake.addFile("notes.txt", Buffer.from("line 1\nline 2\n"), "text/plain");
    rig.say("look at these", [photo, doc]);
    await rig.botSays((m) => m.content.includes("echo: look at these"));
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0].id as string;
    const messages = (await t.api.get(`/chat/conversations/${conv}/messages`)).body.messages as { role: string; attachments?: { id: string; name: string; media_type: string; size: number }[] }[];
    const user = messages.find((m) => m.role === "user")!;
    expect(user.attachments?.map((a) => [a.name, a.media_type, a.size])).toEqual([
      ["cat.png", "image/png", PNG_1X1.length],
      ["notes.txt", "text/plain", 14],
    ]);
    // Out: a file the agent shares goes through the outbox as an upload after the reply's text.
    mkdirSync(t.workspace, { recursive: true });
    writeFileSync(join(t.workspace, "report.pdf"), "%PDF-1.4 the report");
    const list = await t.subscribeList();
    rig.say(script({ text: "Report attached." }, { gate: "dc-share" }));
    const running = await list.waitFor((e: any) => e.type === "conversation_updated" && e.conversation.running);
    list.close();
    const id = (running.event as any).conversation.id as string;
    const outcome = await t.daemon.builtinTools.get("coffer__share_file")!.run({ path: "report.pdf", caption: "the report" }, { caller: "test", principal: { kind: "agent", agent: "scripted", conversationId: id } });
    expect(outcome.ok).toBe(true);
    t.scripted.gates.open("dc-share");
    const sent = await rig.botSays((m) => m.attachments.length > 0);
    expect([sent.content, sent.attachments.map((a) => a.filename)]).toEqual(["the report", ["report.pdf"]]);
    const upload = fake.calls.find((c) => c.method === "POST" && c.files.length > 0)!;
    expect(upload.files[0]!.bytes.toString()).toBe("%PDF-1.4 the report");
    const order = rig.botMessages().map((m) => m.content);
    expect(order.indexOf("Report attached.")).toBeLessThan(order.indexOf("the report"));
  });
});

describe("discord channel: the outbox's key", () => {
  it("each outbox row goes with its key as Discord's enforced nonce, so a resend after a crash shows the message once", async () => {
    rig = await startDiscordRig();
    const { fake } = rig;
    rig.say("hello");
    await rig.botSays((m) => m.content.includes("echo: hello"));
    const creates = fake.calls.filter((c) => c.method === "POST" && c.path === `/channels/${rig!.dm}/messages`);
    expect(creates.length).toBeGreaterThan(1);
    for (const c of creates) expect(c.body).toMatchObject({ nonce: expect.stringMatching(/^o\d+$/), enforce_nonce: true });
    expect(new Set(creates.map((c) => c.body.nonce)).size).toBe(creates.length);
  });
});

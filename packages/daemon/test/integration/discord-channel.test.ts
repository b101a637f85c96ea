/**
 * Discord as a channel of kind "discord" (issue 26): a real daemon (real SQLite, real HTTP), the
 * real @discordjs libraries against our fake Discord (REST + gateway websocket on 127.0.0.1) and
 * the scripted agent — the Telegram channel's scenarios, on the second platform.
 */
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { DISCORD_OWNER, DISCORD_STRANGER, startDiscordRig, type DiscordRig } from "../support/discord-rig.js";

const SPEC = "026-second-platform";
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

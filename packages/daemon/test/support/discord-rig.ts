import { FakeDiscord, type FakeAttachment, type FakeDiscordUser, type FakeMessage } from "../fakes/fake-discord.js";
import { FAST_CHANNEL } from "./fast-channel.js";
import { startTestDaemon, type TestDaemon } from "./test-daemon.js";
import type { StartOptions } from "../../src/main.js";

export const DISCORD_OWNER: FakeDiscordUser = { id: "300000000000000001", username: "ada" };
export const DISCORD_STRANGER: FakeDiscordUser = { id: "300000000000000666", username: "eve" };

export interface DiscordRig {
  readonly fake: FakeDiscord;
  readonly t: TestDaemon;
  readonly channelId: string;
  /** The owner's DM with the bot. */
  readonly dm: string;
  /** The owner writes in the DM; resolves with the message. */
  say(text: string, attachments?: FakeAttachment[]): FakeMessage;
  /** The bot's messages in the owner's DM, as the owner sees them. */
  botMessages(): FakeMessage[];
  /** Resolves once the owner's DM holds a bot message matching. */
  botSays(match: (m: FakeMessage) => boolean): Promise<FakeMessage>;
  pair(): Promise<void>;
  close(): Promise<void>;
}

/** What a daemon needs to reach the fake Discord (spread into its start options). */
export function discordOptions(fake: FakeDiscord): Pick<StartOptions, "discord"> {
  return { discord: { apiRoot: fake.apiRoot } };
}

/** A real daemon, the fake Discord (REST + gateway) on 127.0.0.1, a stored token and a Discord channel on the scripted agent. */
export async function startDiscordRig(overrides: Partial<StartOptions> = {}, opts: { pair?: boolean } = {}): Promise<DiscordRig> {
  const fake = await FakeDiscord.start();
  const t = await startTestDaemon({ ...FAST_CHANNEL, ...overrides, ...discordOptions(fake) });
  return attachDiscordRig(fake, t, opts);
}

export async function attachDiscordRig(fake: FakeDiscord, t: TestDaemon, opts: { pair?: boolean } = {}): Promise<DiscordRig> {
  const put = await t.api.put("/credentials/dc-bot", { secret: fake.token });
  if (put.status !== 200) throw new Error(`credential: ${JSON.stringify(put.body)}`);
  const created = await t.api.post("/channels", { kind: "discord", name: "discord", credentials: { bot_token: "dc-bot" }, default_agent: "scripted" });
  if (created.status !== 201) throw new Error(`channel: ${JSON.stringify(created.body)}`);
  const channelId = created.body.id as string;
  // Connected: the gateway session is READY.
  await fake.until(() => fake.sessions.some((s) => s.socket !== null));
  const dm = fake.dmChannel(DISCORD_OWNER);
  const botMessages = () => fake.channelMessages(dm).filter((m) => m.author.id === fake.bot.id);
  const rig: DiscordRig = {
    fake,
    t,
    channelId,
    dm,
    say: (text, attachments) => fake.userSays(DISCORD_OWNER, text, attachments ? { attachments } : {}),
    botMessages,
    botSays: (match) => fake.until(() => botMessages().find(match)),
    async pair() {
      const code = (await t.api.post(`/channels/${channelId}/pairing-code`)).body.code as string;
      rig.say(code);
      await rig.botSays((m) => m.content.startsWith("Paired."));
    },
    async close() {
      await t.close();
      await fake.close();
    },
  };
  if (opts.pair !== false) await rig.pair();
  return rig;
}

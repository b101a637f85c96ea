import { FakeTelegram, type FakeChatMessage } from "../fakes/fake-telegram.js";
import { startTestDaemon, type TestDaemon } from "./test-daemon.js";
import type { StartOptions } from "../../src/main.js";
import { FAST_CHANNEL } from "./fast-channel.js";

export { FAST_CHANNEL };

export const BOT = { token: "4242:AAE-test-bot-token-Zx9qLmN0pQrStUvW", id: 4242, username: "coffer_test_bot", first_name: "Coffer" };
export const OWNER = { id: 777, first_name: "Ada" };
export const STRANGER = { id: 666, first_name: "Eve" };

export interface ChannelRig {
  readonly tg: FakeTelegram;
  readonly t: TestDaemon;
  readonly channelId: string;
  /** The owner writes to the bot; resolves with the update id. */
  say(text: string): number;
  /** Resolves once the daemon confirmed (handled) this update: the next poll's offset passed it. */
  handled(updateId: number): Promise<void>;
  /** The bot's messages in the owner's chat, as the phone shows them. */
  botMessages(): FakeChatMessage[];
  /** Resolves once the owner's chat holds a bot message matching. */
  botSays(match: (m: FakeChatMessage) => boolean): Promise<FakeChatMessage>;
  pair(): Promise<void>;
  close(): Promise<void>;
}

/** A real daemon, a fake Bot API on 127.0.0.1, a stored token and an enabled channel on the scripted agent (or `defaultAgent`). */
export async function startChannelRig(
  overrides: Partial<StartOptions> & { home?: string } = {},
  opts: { pair?: boolean; defaultAgent?: string } = {},
): Promise<ChannelRig> {
  const tg = await FakeTelegram.start();
  tg.addBot(BOT);
  const t = await startTestDaemon({ ...FAST_CHANNEL, ...overrides, ...channelOptions(tg) });
  return attachChannelRig(tg, t, opts);
}

/** What a daemon needs to reach the fake Bot API (spread into its start options). */
export function channelOptions(tg: FakeTelegram): Pick<StartOptions, "telegram"> {
  return { telegram: { apiRoot: tg.apiRoot, pollTimeoutSeconds: 5 } };
}

/**
 * A channel on a daemon already started with `channelOptions(tg)` (e.g. an agent harness's, to
 * reach a real agent CLI from the phone): the stored token, the channel, the owner paired.
 */
export async function attachChannelRig(tg: FakeTelegram, t: TestDaemon, opts: { pair?: boolean; defaultAgent?: string } = {}): Promise<ChannelRig> {
  const put = await t.api.put("/credentials/tg-bot", { secret: BOT.token });
  if (put.status !== 200) throw new Error(`credential: ${JSON.stringify(put.body)}`);
  const created = await t.api.post("/channels", { kind: "telegram", name: "phone", bot_token_ref: "tg-bot", default_agent: opts.defaultAgent ?? "scripted" });
  if (created.status !== 201) throw new Error(`channel: ${JSON.stringify(created.body)}`);
  const channelId = created.body.id as string;
  await tg.waitFor((f) => f.polling());
  const botMessages = () => tg.chat(OWNER.id).filter((m) => m.from === "bot");
  const rig: ChannelRig = {
    tg,
    t,
    channelId,
    say: (text) => tg.userSays({ chatId: OWNER.id, from: OWNER, text }).update_id,
    handled: (updateId) => tg.waitFor((f) => f.calls("getUpdates").some((c) => Number(c.params.offset ?? 0) > updateId)),
    botMessages,
    async botSays(match) {
      await tg.waitFor(() => botMessages().some(match));
      return botMessages().find(match)!;
    },
    async pair() {
      const code = (await t.api.post(`/channels/${channelId}/pairing-code`)).body.code as string;
      rig.say(code);
      await rig.botSays((m) => m.text.startsWith("Paired."));
    },
    async close() {
      await t.close();
      await tg.close();
    },
  };
  if (opts.pair !== false) await rig.pair();
  return rig;
}

/** The owner sends `text`; resolves with the bot's next message (a command's answer). */
export async function commandAnswer(r: ChannelRig, text: string): Promise<string> {
  const before = r.botMessages().length;
  r.say(text);
  await r.tg.waitFor(() => r.botMessages().length > before);
  return r.botMessages()[before]!.text;
}

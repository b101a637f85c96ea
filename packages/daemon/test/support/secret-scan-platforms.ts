import type { StartOptions } from "../../src/main.js";
import { FakeDiscord } from "../fakes/fake-discord.js";
import { FakeTelegram } from "../fakes/fake-telegram.js";
import { DISCORD_OWNER, DISCORD_STRANGER, discordOptions } from "./discord-rig.js";
import { FAST_CHANNEL } from "./fast-channel.js";
import type { RecordingApi } from "./secret-scan.js";
import { script } from "./scripted-agent.js";

/**
 * One platform in the secret scan (channel-secret-scan.test.ts): its fake, a value for each
 * credential its adapter declares, and a drive through every path that carries them. The scan
 * takes the credential names from GET /channel-kinds, so a platform the daemon registers without
 * an entry here fails the scan; a new platform is one more entry in SCAN_PLATFORMS.
 */
export interface ScanPlatform {
  start(): Promise<ScanFake>;
}

export interface ScanFake {
  /** What the daemon needs to reach this fake (spread into its start options). */
  readonly daemonOptions: Partial<StartOptions>;
  /** A value the fake accepts for a declared credential, and for a secret one a value it refuses. */
  credential(name: string): { readonly good: string; readonly refused?: string };
  /**
   * With the channel created on the good credentials: pair, run turns, make the platform fail
   * (rate limits, 5xx, dropped connections) and finally revoke the credential, so every code
   * path that holds it — requests, retries, error handling, logging — has run.
   */
  exercise(api: RecordingApi, channelId: string): Promise<void>;
  /** The platform really received `secret` (the scan is not vacuous). */
  saw(secret: string): boolean;
  close(): Promise<void>;
}

/** Polls the channel (each answer recorded) until its state is `state`. */
export async function untilState(api: RecordingApi, channelId: string, state: string): Promise<void> {
  for (;;) {
    const c = await api.get(`/channels/${channelId}`);
    if (c.body.status?.state === state) return;
    await new Promise((r) => setImmediate(r));
  }
}

const TG_BOT = { token: "5252:AAF-scan-telegram-token-Pq7Rs8Tu9Vw", id: 5252, username: "coffer_scan_bot", first_name: "Scan" };
const TG_OWNER = { id: 881, first_name: "Ada" };
const TG_STRANGER = { id: 882, first_name: "Eve" };

const telegram: ScanPlatform = {
  async start() {
    const tg = await FakeTelegram.start();
    tg.addBot(TG_BOT);
    const botSays = (text: string) => tg.waitFor((f) => f.chat(TG_OWNER.id).some((m) => m.from === "bot" && m.text.includes(text)));
    return {
      daemonOptions: { ...FAST_CHANNEL, telegram: { apiRoot: tg.apiRoot, pollTimeoutSeconds: 5 } },
      credential: (name) => {
        if (name !== "bot_token") throw new Error(`the Telegram scan entry has no value for ${name}`);
        return { good: TG_BOT.token, refused: "5353:AAF-refused-telegram-token-QwErTy1234" };
      },
      async exercise(api, channelId) {
        const code = (await api.post(`/channels/${channelId}/pairing-code`)).body.code as string;
        tg.userSays({ chatId: TG_STRANGER.id, from: TG_STRANGER, text: "hello?" });
        tg.userSays({ chatId: TG_OWNER.id, from: TG_OWNER, text: code });
        await botSays("Paired.");
        tg.userSays({ chatId: TG_OWNER.id, from: TG_OWNER, text: script({ tool: { id: "t", name: "Bash", input: { command: "ls" }, output: "ok" } }, { text: "done one" }) });
        await botSays("done one");
        tg.failNext("sendMessage", 1, { status: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
        tg.failNext("sendMessage", 2, { status: 502, description: "Bad Gateway" });
        tg.dropNext("sendMessage", 1);
        tg.userSays({ chatId: TG_OWNER.id, from: TG_OWNER, text: script({ text: "done two" }) });
        await botSays("done two");
        // Revoked: every poll is refused until the channel stops.
        tg.dropNext("getUpdates", 1);
        tg.failAll("getUpdates", { status: 401, description: "Unauthorized" });
        tg.userSays({ chatId: TG_OWNER.id, from: TG_OWNER, text: "wake" });
        await untilState(api, channelId, "stopped");
      },
      saw: (secret) => tg.sent.some((c) => c.token === secret),
      close: () => tg.close(),
    };
  },
};

const DC_TOKEN = "MTIzNDU2Nzg5MDEy.scan-discord.token-Gh5Jk6Lm7Np8";

const discord: ScanPlatform = {
  async start() {
    const fake = await FakeDiscord.start({ token: DC_TOKEN });
    const dm = fake.dmChannel(DISCORD_OWNER);
    const botSays = (text: string) => fake.until(() => fake.channelMessages(dm).some((m) => m.author.id === fake.bot.id && m.content.includes(text)));
    return {
      daemonOptions: { ...discordOptions(fake), discordIdentifySpacingMs: 0 },
      credential: (name) => {
        if (name !== "bot_token") throw new Error(`the Discord scan entry has no value for ${name}`);
        return { good: DC_TOKEN, refused: "MTIzNDU2Nzg5MDEz.refused-discord.token-Qw3Er4Ty5" };
      },
      async exercise(api, channelId) {
        await fake.until(() => fake.sessions.some((s) => s.socket !== null));
        const code = (await api.post(`/channels/${channelId}/pairing-code`)).body.code as string;
        fake.userSays(DISCORD_STRANGER, "hello?");
        fake.userSays(DISCORD_OWNER, code);
        await botSays("Paired.");
        fake.userSays(DISCORD_OWNER, script({ tool: { id: "t", name: "Bash", input: { command: "ls" }, output: "ok" } }, { text: "done one" }));
        await botSays("done one");
        // REST rate limits, then the gateway asks for a reconnect and drops the socket: RESUME and IDENTIFY carry the token.
        fake.rateLimitNext(2);
        fake.forceReconnect();
        fake.userSays(DISCORD_OWNER, script({ text: "done two" }));
        await botSays("done two");
        fake.dropSockets();
        fake.userSays(DISCORD_OWNER, script({ text: "done three" }));
        await botSays("done three");
        // Revoked: Discord no longer knows the token; the next start is refused and the channel stops.
        (fake as { token: string }).token = "revoked";
        await api.post(`/channels/${channelId}/disable`);
        await api.post(`/channels/${channelId}/enable`);
        await untilState(api, channelId, "stopped");
      },
      saw: (secret) => fake.calls.some((c) => c.authorization === `Bot ${secret}`) && fake.frames.some((f) => f.op === 2 && f.d?.token === secret),
      close: () => fake.close(),
    };
  },
};

/** Every platform the scan knows, by the kind its adapter registers. */
export const SCAN_PLATFORMS: Readonly<Record<string, ScanPlatform>> = { telegram, discord };

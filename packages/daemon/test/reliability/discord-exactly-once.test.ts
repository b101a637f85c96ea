/**
 * Discord exactly once through the whole daemon (issue 26): the gateway forced to reconnect
 * (op 7: RESUME) and its session killed (op 9: a fresh IDENTIFY, the gap read from history)
 * while the owner writes, then kill -9 of the daemon process between the gateway handing
 * messages over and their replies. After each, every message ran once and every reply reached
 * the DM once. The kill lands at a random moment (seeded; replay with COFFER_KILL_SEED).
 */
import { rm } from "node:fs/promises";
import { afterAll, afterEach, expect } from "vitest";
import { FakeDiscord } from "../fakes/fake-discord.js";
import { acceptance } from "../support/acceptance.js";
import { DISCORD_OWNER, startDiscordRig, type DiscordRig } from "../support/discord-rig.js";
import { ApiClient } from "../support/http-client.js";
import { prng } from "../support/prng.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";

const SPEC = "026-second-platform";
const SEED = Number(process.env.COFFER_KILL_SEED ?? Date.now() % 1_000_000_007);

let rig: DiscordRig | null = null;
let home: string | null = null;
let fake: FakeDiscord | null = null;
let daemon: DaemonProcess | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});
afterAll(async () => {
  daemon?.child.kill("SIGKILL");
  await fake?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A pause of a random length: the crash point itself, not a wait for something to happen. */
const jitter = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every user message's text, across conversations. */
async function ran(api: ApiClient): Promise<string[]> {
  const out: string[] = [];
  for (const c of (await api.get("/chat/conversations")).body.conversations as { id: string }[]) {
    const messages = (await api.get(`/chat/conversations/${c.id}/messages`)).body.messages as { role: string; content: { text?: string }[] }[];
    for (const m of messages) if (m.role === "user") out.push(m.content.map((b) => b.text ?? "").join(""));
  }
  return out;
}

acceptance(SPEC, "Discord delivery is exactly once across kill -9 and a forced gateway reconnect (resume and re-identify)", async () => {
  // 1. In one daemon: op 7 (RESUME on the resume URL) and op 9 (IDENTIFY anew, history read) mid-stream.
  rig = await startDiscordRig();
  const f = rig.fake;
  const sent: string[] = [];
  const say = (text: string) => {
    sent.push(text);
    rig!.say(text);
  };
  say("r-one");
  f.forceReconnect();
  say("r-two");
  await rig.botSays((m) => m.content.includes("echo: r-two"));
  await f.until(() => f.frames.some((fr) => fr.op === 6));
  f.killSessions();
  // Said while no session is alive: only the history read after the new IDENTIFY finds it.
  say("r-three");
  await f.until(() => f.frames.filter((fr) => fr.op === 2).length >= 2);
  say("r-four");
  await rig.botSays((m) => m.content.includes("echo: r-four"));
  await rig.botSays((m) => m.content.includes("echo: r-three"));
  const texts = await ran(rig.t.api);
  for (const text of sent) expect(texts.filter((t) => t === text), `${text} ran once`).toHaveLength(1);
  for (const text of sent) expect(rig.botMessages().filter((m) => m.content.includes(`echo: ${text}`)), `${text} replied once`).toHaveLength(1);
  await rig.close();
  rig = null;

  // 2. kill -9 of the daemon process, at a random moment after the gateway handed messages over.
  const random = prng(SEED);
  home = await makeHome();
  fake = await FakeDiscord.start();
  const start = async () => {
    const d = await spawnDaemon(home!, { COFFER_DISCORD_API_ROOT: fake!.apiRoot, COFFER_TEST_FAST_CHANNELS: "1", COFFER_WEB_ROOT: "none" });
    return { d, api: new ApiClient(d.url, d.token) };
  };
  let { d, api } = await start();
  daemon = d;
  await api.put("/credentials/dc-bot", { secret: fake.token });
  const channel = (await api.post("/channels", { kind: "discord", name: "discord", credentials: { bot_token: "dc-bot" }, default_agent: "scripted" })).body;
  await fake.until(() => fake!.sessions.some((s) => s.socket !== null));
  const dm = fake.dmChannel(DISCORD_OWNER);
  const bot = () => fake!.channelMessages(dm).filter((m) => m.author.id === fake!.bot.id).map((m) => m.content);
  const code = (await api.post(`/channels/${channel.id}/pairing-code`)).body.code as string;
  fake.userSays(DISCORD_OWNER, code);
  await fake.until(() => bot().some((b) => b.startsWith("Paired.")));
  const killed: string[] = [];
  try {
    for (let cycle = 0; cycle < 2; cycle++) {
      const words = [`k${cycle}-alpha`, `k${cycle}-bravo`, `k${cycle}-charlie`];
      for (const w of words) {
        killed.push(w);
        fake.userSays(DISCORD_OWNER, w);
      }
      await jitter(Math.floor(random() * 60));
      d.child.kill("SIGKILL");
      await d.exited;
      ({ d, api } = await start());
      daemon = d;
      // The probe runs last in the one queue: once its reply is in, every earlier turn ended
      // and every earlier reply was delivered.
      const probe = `k${cycle}-probe`;
      killed.push(probe);
      fake.userSays(DISCORD_OWNER, probe);
      await fake.until(() => bot().some((b) => b.includes(`echo: ${probe}`)));
      expect((await api.get(`/channels/${channel.id}`)).body.status.state).toBe("polling");
      const texts = await ran(api);
      for (const text of killed) expect(texts.filter((t) => t === text), `${text} ran once (seed ${SEED})`).toHaveLength(1);
      // A reply the kill cut off mid-turn is never sent (the chat is told instead); none twice.
      for (const text of killed) expect(bot().filter((b) => b.includes(`echo: ${text}`)).length, `${text} replied at most once (seed ${SEED})`).toBeLessThanOrEqual(1);
      const cutOff = killed.filter((text) => !bot().some((b) => b.includes(`echo: ${text}`)));
      if (cutOff.length) expect(bot().some((b) => b.startsWith("⚠️ Coffer restarted while replying")), `cut off: ${cutOff.join(", ")} (seed ${SEED})`).toBe(true);
    }
  } catch (err) {
    console.error(`discord kill test failed with COFFER_KILL_SEED=${SEED}\n${d.stderr()}`);
    throw err;
  }
}, 120_000);

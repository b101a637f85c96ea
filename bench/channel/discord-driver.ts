import { FakeDiscord } from "../../packages/daemon/test/fakes/fake-discord.js";
import { attachDiscordRig, DISCORD_OWNER, discordOptions } from "../../packages/daemon/test/support/discord-rig.js";
import { FAST_CHANNEL } from "../../packages/daemon/test/support/fast-channel.js";
import { startTestDaemon } from "../../packages/daemon/test/support/test-daemon.js";
import { wallClockMs, type ChannelDriver, type DriverRig } from "./driver.js";

/** Discord's per-channel bucket for message edits (5 per 5 s), enforced by the fake with 429s as Discord does. */
const EDIT_BUCKET = { limit: 5, windowMs: 5000 };

/**
 * Discord against our fake (REST + gateway websocket): the daemon holds a gateway session, the
 * floor is the fake writing MESSAGE_CREATE to that socket, a burst is 100 frames written at once,
 * and the edit bar is Discord's own bucket, which the fake enforces.
 */
export const discordDriver: ChannelDriver = {
  name: "Discord",
  editWindowMs: EDIT_BUCKET.windowMs,
  maxEditsPerWindow: EDIT_BUCKET.limit,
  batchWords: "frames written at once",
  pollMethod: null,
  async start(): Promise<DriverRig> {
    const fake = await FakeDiscord.start({ editBucket: EDIT_BUCKET });
    // Default channel timings (not the tests' fast ones); the fake takes a re-IDENTIFY at once.
    const t = await startTestDaemon({ ...FAST_CHANNEL, channelTimings: {}, telegramRetry: undefined, ...discordOptions(fake) });
    const rig = await attachDiscordRig(fake, t);
    // Edit times, seen as the fake records each PATCH (it keeps no times of its own).
    const edits: number[] = [];
    let seenCalls = 0;
    const watch = () => {
      for (const c of fake.calls.slice(seenCalls)) if (c.method === "PATCH" && c.path.startsWith(`/channels/${rig.dm}/messages/`) && c.status < 300) edits.push(wallClockMs());
      seenCalls = fake.calls.length;
      return false;
    };
    void fake.until(watch);
    // The fake's `until` checks at once and then at each change: the first check declines, so this is the next change.
    const nextChange = () => {
      let first = true;
      return fake.until(() => (first ? ((first = false), false) : true)).then(() => undefined);
    };
    let handedOver = Number.NaN;
    const messagesIn = async () => ((await t.api.get(`/channels/${rig.channelId}`)).body.counts as { messages_in: number }).messages_in;
    return {
      t,
      channelId: rig.channelId,
      say(text) {
        // The fake writes the MESSAGE_CREATE frame to the session's socket inside userSays.
        rig.say(text);
        handedOver = wallClockMs();
      },
      handOverSince: (t0) => (handedOver >= t0 ? handedOver - t0 : Number.NaN),
      async sayAll(texts) {
        const before = await messagesIn();
        const botBefore = rig.botMessages().length;
        for (const text of texts) rig.say(text);
        // Handled: every message counted in, and the burst's acknowledgement (sent when the batch ends) delivered.
        for (;;) {
          if ((await messagesIn()) >= before + texts.length && rig.botMessages().slice(botBefore).some((m) => /^⏳ Queued|already waiting/m.test(m.content))) break;
          await nextChange();
        }
        return { batched: true };
      },
      botMessages: () => rig.botMessages().map((m) => ({ text: m.content })),
      waitFor: (predicate) => fake.until(() => predicate()).then(() => undefined),
      changed: nextChange,
      // The gateway session is live: the next message reaches the daemon as soon as it is written.
      listening: () => fake.until(() => fake.sessions.some((s) => s.socket !== null)).then(() => undefined),
      editTimes: () => edits,
      maxEditsInWindow(windowMs) {
        let most = 0;
        for (let i = 0, j = 0; i < edits.length; i++) {
          while (edits[i]! - edits[j]! >= windowMs) j++;
          most = Math.max(most, i - j + 1);
        }
        return most;
      },
      mark: () => fake.calls.length,
      callsSince(mark) {
        const calls: Record<string, number> = {};
        for (const c of fake.calls.slice(mark)) {
          const key = `${c.method} ${c.path.replace(/\d{5,}/g, ":id")}${c.status === 429 ? " (429)" : ""}`;
          calls[key] = (calls[key] ?? 0) + 1;
        }
        return calls;
      },
      close: () => rig.close(),
    };
  },
};

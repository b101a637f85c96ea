import { OWNER, startChannelRig } from "../../packages/daemon/test/support/channel-rig.js";
import type { ChannelDriver, DriverRig } from "./driver.js";

/**
 * Telegram against our fake Bot API: the daemon long-polls getUpdates (the rig's 5 s poll), the
 * floor is the fake answering the held poll, a burst is one getUpdates answer, and the edit bar
 * is the channel's default interval (one edit per 1.5 s per chat).
 */
export const telegramDriver: ChannelDriver = {
  name: "Telegram",
  editWindowMs: 1500,
  maxEditsPerWindow: 1,
  batchWords: "one getUpdates batch",
  pollMethod: "getUpdates",
  async start(): Promise<DriverRig> {
    // Empty channelTimings and no telegramRetry: the daemon's defaults, not the test rig's fast ones.
    const rig = await startChannelRig({ channelTimings: {}, telegramRetry: undefined });
    const { tg } = rig;
    return {
      t: rig.t,
      channelId: rig.channelId,
      say: (text) => void rig.say(text),
      handOverSince(t0) {
        // The held poll answers inside userSays: its answer time is the fake's own hand-over.
        const poll = tg.calls("getUpdates").find((c) => c.answeredAt >= t0);
        return poll ? poll.answeredAt - t0 : Number.NaN;
      },
      async sayAll(texts) {
        const updates = tg.userSaysAll(texts.map((text) => ({ chatId: OWNER.id, from: OWNER, text })));
        const first = updates[0]!.update_id;
        const last = updates.at(-1)!.update_id;
        await rig.handled(last);
        // One batch: no poll confirmed part of the burst (an offset strictly inside it).
        return { batched: !tg.calls("getUpdates").some((c) => Number(c.params.offset ?? 0) > first && Number(c.params.offset ?? 0) <= last) };
      },
      botMessages: () => rig.botMessages(),
      waitFor: (predicate) => tg.waitFor(() => predicate()),
      changed: () => new Promise((resolve) => tg.once("change", () => resolve())),
      listening: () => tg.waitFor((f) => f.polling()),
      editTimes: () => tg.editTimes(OWNER.id),
      maxEditsInWindow: (windowMs) => tg.maxEditsInWindow(OWNER.id, windowMs),
      mark: () => tg.sent.length,
      callsSince(mark) {
        const calls: Record<string, number> = {};
        for (const c of tg.sent.slice(mark)) calls[c.method] = (calls[c.method] ?? 0) + 1;
        return calls;
      },
      close: () => rig.close(),
    };
  },
};

/**
 * The phone as a bench surface: the owner, paired with the daemon's Telegram channel on the fake
 * Bot API (grammY long-polls it over 127.0.0.1), sends a photo with a caption, or the caption's
 * text alone. What the daemon does for it is what it does for a real phone: the update arrives on
 * its held poll, getFile, the download from the file server, the attachment store, the queue.
 *
 * Before its first message in a conversation the chat is moved there with /open (not timed), so
 * the phone's turns run in the same warm conversation as the floor's.
 */
import { isTerminalEvent } from "@coffer/protocol";
import { FakeTelegram } from "../../packages/daemon/test/fakes/fake-telegram.js";
import { BOT, OWNER } from "../../packages/daemon/test/support/channel-rig.js";
import { ApiClient, SseSubscription } from "../../packages/daemon/test/support/http-client.js";
import { within } from "../support/child.js";
import type { BenchDaemon, Surface } from "./surfaces.js";

const SETUP_MS = 60_000;

/** The fake Bot API a bench daemon is started against (its env), before the daemon starts. */
export async function startFakeTelegram(): Promise<{ tg: FakeTelegram; env: NodeJS.ProcessEnv }> {
  const tg = await FakeTelegram.start();
  tg.addBot(BOT);
  return { tg, env: { COFFER_TELEGRAM_API_ROOT: tg.apiRoot } };
}

/** The bot's newest message in the owner's chat that matches, once there is one after `from`. */
async function botSays(tg: FakeTelegram, from: number, match: (text: string) => boolean, what: string): Promise<void> {
  const found = () => tg.chat(OWNER.id).slice(from).some((m) => m.from === "bot" && match(m.text));
  await within(SETUP_MS, tg.waitFor(found), what);
}

/**
 * A Telegram channel on the daemon with the owner paired, and the Surface that sends from it.
 * `photo` is the image the phone sends whenever a bench message carries one (a JPEG: Telegram
 * delivers every photo as one), in place of the page's and the CLI's file.
 */
export async function telegramSurface(d: BenchDaemon, tg: FakeTelegram, photo: Buffer): Promise<Surface> {
  const api = new ApiClient(d.url, d.token);
  const put = await api.put("/credentials/tg-bot", { secret: BOT.token });
  if (put.status !== 200) throw new Error(`credential: ${JSON.stringify(put.body)}`);
  const channel = await api.post("/channels", { kind: "telegram", name: "phone", bot_token_ref: "tg-bot", default_agent: "claude_code" });
  if (channel.status !== 201) throw new Error(`channel: ${JSON.stringify(channel.body)}`);
  await within(SETUP_MS, tg.waitFor((f) => f.polling()), "the channel's first poll");
  const code = (await api.post(`/channels/${channel.body.id as string}/pairing-code`)).body.code as string;
  const before = tg.chat(OWNER.id).length;
  tg.userSays({ chatId: OWNER.id, from: OWNER, text: code });
  await botSays(tg, before, (t) => t.startsWith("Paired."), "pairing");

  let here: string | null = null;
  /** Moves the chat to conversation `id` (the newest one: the bench just made and warmed it). */
  async function openHere(id: string): Promise<void> {
    if (here === id) return;
    const from = tg.chat(OWNER.id).length;
    tg.userSays({ chatId: OWNER.id, from: OWNER, text: "/open 1" });
    await botSays(tg, from, (t) => t.startsWith("Switched to") || t.startsWith("Which one?"), "/open");
    const bound = (await api.get(`/chat/conversations/${id}`)).body as { channel_binding?: { channel_id?: string } | null };
    if (!bound.channel_binding) throw new Error(`/open 1 did not move the chat to ${id}: ${JSON.stringify(bound)}`);
    here = id;
  }

  return {
    name: "Telegram",
    async send(_d, id, text, image) {
      await openHere(id);
      const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
      try {
        const from = sub.events.length;
        // From the moment the phone's update is offered: a held long poll answers it at once.
        const startedAt = performance.now();
        if (image) {
          // One size only; the daemon picks a photo's largest size by file_size, so width/height are nominal.
          const file = tg.addFile(photo, { path: `photos/file_${Date.now()}.jpg` });
          tg.userSays({ chatId: OWNER.id, from: OWNER, text, media: { photo: [{ ...file, width: 1600, height: 1600 }] } });
        } else {
          tg.userSays({ chatId: OWNER.id, from: OWNER, text });
        }
        const end = await sub.waitFor(isTerminalEvent, from);
        if (end.event.type !== "turn_done") throw new Error(`turn ended ${JSON.stringify(end.event)}`);
        return { startedAt };
      } finally {
        sub.close();
      }
    },
  };
}

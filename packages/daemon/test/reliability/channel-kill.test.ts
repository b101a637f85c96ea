/**
 * kill -9 with the phone mid-conversation: replies undelivered (Telegram answering 503) and
 * phone messages just handed to the daemon by a long poll. After a restart on the same data
 * dir — with Telegram healthy again — every phone message ran exactly once (a user message or
 * still queued: never lost, never doubled) and every reply reached the chat exactly once.
 * The kill lands at a random moment after the poll hands the new messages over (seeded; replay
 * with COFFER_KILL_SEED).
 */
import { rm } from "node:fs/promises";
import { afterAll, expect } from "vitest";
import { FakeTelegram } from "../fakes/fake-telegram.js";
import { acceptance } from "../support/acceptance.js";
import { BOT, OWNER } from "../support/channel-rig.js";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";
import { prng } from "../support/prng.js";

const SEED = Number(process.env.COFFER_KILL_SEED ?? Date.now() % 1_000_000_007);
const CYCLES = 3;

let home: string | null = null;
let tg: FakeTelegram | null = null;
let daemon: DaemonProcess | null = null;
afterAll(async () => {
  daemon?.child.kill("SIGKILL");
  await tg?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

/** A pause of a random length: the crash point itself, not a wait for something to happen. */
const jitter = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function start(): Promise<{ d: DaemonProcess; api: ApiClient }> {
  const d = await spawnDaemon(home!, {
    COFFER_TELEGRAM_API_ROOT: tg!.apiRoot,
    COFFER_TELEGRAM_POLL_TIMEOUT_SECONDS: "5",
    COFFER_TEST_FAST_CHANNELS: "1",
    COFFER_WEB_ROOT: "none",
  });
  return { d, api: new ApiClient(d.url, d.token) };
}

acceptance(
  "013-telegram-channel",
  "after kill -9 each phone message ran once and each reply was delivered once",
  async () => {
    const random = prng(SEED);
    home = await makeHome();
    tg = await FakeTelegram.start();
    tg.addBot(BOT);
    let { d, api } = await start();
    daemon = d;
    await api.put("/credentials/tg-bot", { secret: BOT.token });
    const channel = (await api.post("/channels", { kind: "telegram", name: "phone", bot_token_ref: "tg-bot", default_agent: "scripted" })).body;
    const code = (await api.post(`/channels/${channel.id}/pairing-code`)).body.code as string;
    tg.userSays({ chatId: OWNER.id, from: OWNER, text: code });
    await tg.waitFor((f) => f.chat(OWNER.id).some((m) => m.from === "bot" && m.text.startsWith("Paired.")));

    const sent: string[] = [];
    try {
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        // Telegram refuses deliveries: every reply of this cycle waits in the outbox.
        tg.failAll("sendMessage", { status: 503, description: "Service Unavailable" });
        const list = await SseSubscription.open(d.url, d.token, "/chat/events");
        for (const word of ["alpha", "bravo"]) {
          const text = `c${cycle}-${word}`;
          sent.push(text);
          tg.userSays({ chatId: OWNER.id, from: OWNER, text });
        }
        // Both ran (their turns ended) before the kill: their replies are undelivered, not unwritten.
        const ended = (e: unknown) => {
          const event = e as { type: string; conversation?: { running: boolean } };
          return event.type === "conversation_updated" && event.conversation?.running === false;
        };
        await list.waitForCount(ended, 2);
        list.close();
        // Their replies are undelivered now: Telegram refused them, none reached the chat.
        await tg.waitFor((f) => f.calls("sendMessage", { ok: false }).length > 0);
        expect(tg.chat(OWNER.id).some((m) => m.from === "bot" && m.text.includes(`c${cycle}-alpha`))).toBe(false);
        // Two more, then the crash somewhere between the poll handing them over and their replies.
        const pollsBefore = tg.calls("getUpdates").length;
        for (const word of ["charlie", "delta"]) {
          const text = `c${cycle}-${word}`;
          sent.push(text);
          tg.userSays({ chatId: OWNER.id, from: OWNER, text });
        }
        await tg.waitFor((f) => f.calls("getUpdates").length > pollsBefore || f.calls("getUpdates").at(-1)?.status === 200);
        await jitter(Math.floor(random() * 40));
        d.child.kill("SIGKILL");
        await d.exited;

        tg.heal();
        ({ d, api } = await start());
        daemon = d;
        // A probe from the phone resumes whatever the restart left queued and runs last: once its
        // reply is in the chat, every earlier turn has ended and every earlier reply was delivered
        // (one conversation runs in order; the outbox delivers in order).
        const probe = `c${cycle}-probe`;
        sent.push(probe);
        tg.userSays({ chatId: OWNER.id, from: OWNER, text: probe });
        await tg.waitFor((f) => f.chat(OWNER.id).some((m) => m.from === "bot" && m.text.includes(probe)));
        expect((await api.get(`/channels/${channel.id}`)).body.status.state).toBe("polling");

        const conversations = (await api.get("/chat/conversations")).body.conversations as { id: string }[];
        const ran: string[] = [];
        const cutOff: string[] = [];
        for (const c of conversations) {
          const messages = (await api.get(`/chat/conversations/${c.id}/messages`)).body.messages as {
            role: string;
            status: string;
            error_code?: string | null;
            content: { type: string; text?: string }[];
          }[];
          expect(messages.filter((m) => m.status === "streaming")).toEqual([]);
          messages.forEach((m, i) => {
            if (m.role !== "user") return;
            const text = m.content.map((b) => b.text ?? "").join("");
            ran.push(text);
            // The kill landed inside this message's turn: the reply ends daemon_restart, the chat is told.
            if (messages[i + 1]?.status === "failed") cutOff.push(text);
          });
          expect((await api.get(`/chat/conversations/${c.id}/pending`)).body.pending).toEqual([]);
        }
        for (const text of sent) expect(ran.filter((r) => r === text), `${text} ran once (seed ${SEED})`).toHaveLength(1);
        // Each reply (the echo quotes the message) arrived exactly once; a cut-off one never, with a notice.
        const botTexts = tg.chat(OWNER.id).filter((m) => m.from === "bot").map((m) => m.text);
        for (const text of sent) {
          const replies = botTexts.filter((b) => b.includes(text) && !b.startsWith("⏳"));
          expect(replies, `${text} replied once (seed ${SEED})`).toHaveLength(cutOff.includes(text) ? 0 : 1);
        }
        if (cutOff.length) expect(botTexts.some((b) => b.startsWith("⚠️ Coffer restarted while replying"))).toBe(true);
      }

      // Killed mid-reply: after the restart the phone is told, instead of waiting forever.
      const list = await SseSubscription.open(d.url, d.token, "/chat/events");
      tg.userSays({ chatId: OWNER.id, from: OWNER, text: JSON.stringify({ script: [{ text: "half an ans" }, { hang: true }] }) });
      await list.waitFor((e) => (e as { type: string; conversation?: { running: boolean } }).conversation?.running === true);
      list.close();
      d.child.kill("SIGKILL");
      await d.exited;
      ({ d, api } = await start());
      daemon = d;
      const notice = "⚠️ Coffer restarted while replying; what was written so far is kept in the conversation.";
      await tg.waitFor((f) => f.chat(OWNER.id).some((m) => m.from === "bot" && m.text === notice));
    } catch (err) {
      console.error(`channel kill test failed with COFFER_KILL_SEED=${SEED}\n${d.stderr()}`);
      throw err;
    }
  },
  120_000,
);

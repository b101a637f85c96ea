import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { FakeTelegram, type FakeChatMessage } from "../packages/daemon/test/fakes/fake-telegram.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// A Telegram forum group of just the owner and the bot (our fake Bot API): /new in General opens
// a topic bound to a fresh conversation; the page marks that conversation as living in a topic.
const BOT = { token: "778003:e2e-topics-token", id: 778003, username: "coffer_topics_bot", first_name: "Coffer Topics" };
const ADA = { id: 5252, first_name: "Ada" };
const GROUP = -1007770001;

let tg: FakeTelegram;
let d: E2eDaemon;
let browser: Browser;
let page: Page;

const botIn = (chatId: number, threadId: number | null) => tg.chat(chatId).filter((m) => m.from === "bot" && m.threadId === threadId);
async function botSaysIn(chatId: number, threadId: number | null, match: (m: FakeChatMessage) => boolean): Promise<void> {
  await tg.waitFor(() => botIn(chatId, threadId).some(match));
}

beforeAll(async () => {
  tg = await FakeTelegram.start();
  tg.addBot(BOT);
  [d, browser] = await Promise.all([startE2eDaemon({ COFFER_TELEGRAM_API_ROOT: tg.apiRoot }), launchBrowser()]);
  expect((await d.api.put("/credentials/tg-topics", { secret: BOT.token })).status).toBe(200);
  const created = await d.api.post("/channels", { kind: "telegram", name: "Phone", bot_token_ref: "tg-topics", default_agent: "scripted" });
  expect(created.status).toBe(201);
  const code = (await d.api.post(`/channels/${created.body.id}/pairing-code`)).body.code as string;
  await tg.waitFor((f) => f.polling());
  tg.userSays({ chatId: ADA.id, from: ADA, text: code });
  await botSaysIn(ADA.id, null, (m) => m.text.startsWith("Paired."));
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}, 60_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `ch-topics-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await tg?.close();
});

describe("forum topics on the page", () => {
  test("a conversation opened in a forum topic shows its channel and its topic on the page", async () => {
    tg.addGroup({ chatId: GROUP, isForum: true, members: [ADA] });
    await botSaysIn(GROUP, null, (m) => m.text.startsWith("Ready: each topic"));
    tg.userSays({ chatId: GROUP, from: ADA, text: "/new", chatType: "supergroup" });
    await tg.waitFor((f) => (f.group(GROUP)?.topics.size ?? 0) === 1);
    const topic = [...tg.group(GROUP)!.topics.keys()][0]!;
    tg.userSays({ chatId: GROUP, from: ADA, text: "topic talk", chatType: "supergroup", threadId: topic });
    await botSaysIn(GROUP, topic, (m) => m.text.includes("topic talk") && !m.text.startsWith("🆕"));

    const row = ui(page).history.getByRole("link", { name: /topic talk/ });
    await row.getByTitle("via a Telegram topic").waitFor();
    await row.click();
    await page.waitForURL(/\/chat\/[^/]+$/);
    const chip = page.getByTitle(`Replies also go to its own topic in the Telegram group ${GROUP}`);
    expect(await chip.textContent()).toBe("via a Telegram topic");
    await shot(page, "ch-topics-thread-1440-light");
  });

  test("a conversation living in a Discord thread is called a thread on the page, in Discord's words", async () => {
    // The binding as Discord's thread commands write it (parent channel, then the thread); the
    // daemon adds the words of the platform registered for the kind.
    const made = await d.api.post("/chat/conversations", {
      agent_key: "scripted",
      title: "thread talk",
      channel_binding: { channel: "discord", chat_id: "880001", thread_id: "880001/880002" },
    });
    expect(made.status).toBe(201);
    expect(made.body.channel_binding).toMatchObject({ thread_noun: "thread", place_noun: "channel" });
    const row = ui(page).history.getByRole("link", { name: /thread talk/ });
    await row.getByTitle("via a Discord thread").waitFor();
    await row.click();
    await page.waitForURL(new RegExp(`/chat/${made.body.id}$`));
    const chip = page.getByTitle("Replies also go to its own thread in the Discord channel 880001");
    expect(await chip.textContent()).toBe("via a Discord thread");
    expect(await page.getByText(/Discord topic/).count()).toBe(0);
    await shotAll(page, "ch-topics-discord-thread");
  });
});

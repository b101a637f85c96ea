import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { makeAgentRig, type AgentRig } from "../packages/daemon/test/fakes/agent-rig.js";
import { FakeTelegram, type FakeChatMessage } from "../packages/daemon/test/fakes/fake-telegram.js";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// The phone (our fake Bot API) starts turns of the REAL `claude` CLI, which talks to the fake
// Anthropic server on 127.0.0.1; the page in Chromium watches the same conversation live.
const SPEC = "013-telegram-channel";
const BOT = { token: "778002:e2e-live-token", id: 778002, username: "coffer_live_bot", first_name: "Coffer Live" };
const ADA = { id: 5151, first_name: "Ada" };
/** The CLI's cold start and its first model call can take a while on two busy cores. */
const CLI_MS = 45_000;

let rig: AgentRig<"claude_code">;
let tg: FakeTelegram;
let d: E2eDaemon;
let browser: Browser;
let page: Page;

const phone = () => tg.chat(ADA.id);
const botMessages = () => phone().filter((m) => m.from === "bot");
async function botSays(match: (m: FakeChatMessage) => boolean): Promise<FakeChatMessage> {
  await tg.waitFor(() => botMessages().some(match));
  return botMessages().find(match)!;
}

beforeAll(async () => {
  tg = await FakeTelegram.start();
  tg.addBot(BOT);
  rig = await makeAgentRig("claude_code");
  [d, browser] = await Promise.all([startE2eDaemon({ ...rig.env, COFFER_TELEGRAM_API_ROOT: tg.apiRoot }), launchBrowser()]);
  const put = await d.api.put("/credentials/tg-live", { secret: BOT.token });
  expect(put.status).toBe(200);
  const created = await d.api.post("/channels", { kind: "telegram", name: "Phone", bot_token_ref: "tg-live", default_agent: "claude_code" });
  expect(created.status).toBe(201);
  const code = (await d.api.post(`/channels/${created.body.id}/pairing-code`)).body.code as string;
  await tg.waitFor((f) => f.polling());
  tg.userSays({ chatId: ADA.id, from: ADA, text: code });
  await botSays((m) => m.text.startsWith("Paired."));
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}, 60_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `ch-failed-live-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await rig?.close();
  await tg?.close();
});

/** The thread at both sizes, light and dark: ch-live-<name>-1440-light, … */
async function shotsEverywhere(name: string, ready: () => Promise<void>): Promise<void> {
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      await ready();
      await shot(page, `ch-live-${name}-${w}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

describe("a phone-started turn of the real Claude Code CLI, watched live on the page", () => {
  acceptance(
    SPEC,
    "a phone message starts a turn the page shows streaming live",
    async () => {
      tg.userSays({ chatId: ADA.id, from: ADA, text: "GATE live" });
      const asked = phone().at(-1)!;
      // The new conversation shows up in the open history list on its own, marked as the phone's.
      const row = ui(page).history.getByRole("link", { name: /GATE live/ });
      await row.getByTitle("via Telegram").waitFor();
      expect(await row.textContent()).toContain("via Telegram");
      await row.click();
      await page.waitForURL(/\/chat\/[^/]+$/);
      const headerChip = page.getByTitle(`Replies also go to the Telegram chat ${ADA.id}`);
      expect(await headerChip.textContent()).toBe("via Telegram");

      // Held mid-reply by the fake model: the page already shows what streamed so far.
      const reply = ui(page).lastReply();
      await reply.getByText("gated live", { exact: false }).waitFor({ timeout: CLI_MS });
      expect(await reply.textContent()).not.toContain("released");
      expect(botMessages().some((m) => m.text.includes("released"))).toBe(false);
      await shot(page, "ch-live-streaming-1440-light");

      rig.fake.open("live");
      await reply.getByText("released", { exact: false }).waitFor({ timeout: CLI_MS });
      // The answer reaches the phone as a message of its own, after the one that asked.
      const answer = await botSays((m) => m.messageId > asked.messageId && m.text.includes("gated live released"));
      expect(answer.edits).toBe(0);
      // It was the real CLI asking the fake model, not a scripted stand-in.
      expect(rig.fake.requests.some((r) => r.lastUser.text.startsWith("GATE live"))).toBe(true);
      await shotsEverywhere("thread", () => headerChip.waitFor());
    },
    120_000,
  );

  test("the page's stop button stops a phone-started turn and the phone is told", async () => {
    const before = botMessages().length;
    tg.userSays({ chatId: ADA.id, from: ADA, text: "HOLD until stopped" });
    const reply = ui(page).lastReply();
    await reply.getByText("partial reply", { exact: false }).waitFor({ timeout: CLI_MS });
    await ui(page).stop.click();
    await reply.getByText("Stopped").waitFor({ timeout: 30_000 });
    expect(await reply.textContent()).toContain("partial reply");
    const stopped = await botSays((m) => m.text.startsWith("⏹ Stopped"));
    expect(botMessages().indexOf(stopped)).toBeGreaterThanOrEqual(before);
    await shot(page, "ch-live-stopped-1440-light");
  }, 120_000);
});

import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH, type ChannelListOut } from "@coffer/protocol";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { FakeDiscord } from "../packages/daemon/test/fakes/fake-discord.js";
import { FakeTelegram } from "../packages/daemon/test/fakes/fake-telegram.js";
import { DISCORD_OWNER } from "../packages/daemon/test/support/discord-rig.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

const BOT = { token: "777001:e2e-real-token", id: 777001, username: "coffer_e2e_bot", first_name: "Coffer E2E" };
const ADA = { id: 4242, first_name: "Ada" };
const CODE = new RegExp(`^[${PAIRING_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`);

let tg: FakeTelegram;
let dc: FakeDiscord;
let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  tg = await FakeTelegram.start();
  tg.addBot(BOT);
  dc = await FakeDiscord.start({ token: "MTAwMDAx.e2e-discord.token-not-real" });
  [d, browser] = await Promise.all([startE2eDaemon({ COFFER_TELEGRAM_API_ROOT: tg.apiRoot, COFFER_DISCORD_API_ROOT: dc.apiRoot }), launchBrowser()]);
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `ch-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await tg?.close();
  await dc?.close();
});

const nav = (name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
const card = (state: string, name = "Phone") => page.getByRole("list", { name: "Channels" }).getByRole("listitem", { name: `${name}, ${state}` });
const get = async <T>(path: string): Promise<T> =>
  (await (await fetch(`${d.daemon.url}/api/v1${path}`, { headers: { authorization: `Bearer ${d.daemon.token}` } })).json()) as T;

/** Each main state at the two sizes, light and dark: name-1440-light, name-390-dark, … */
async function shotsEverywhere(name: string, ready: () => Promise<void>): Promise<void> {
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      await ready();
      await shot(page, `ch-${name}-${w}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

describe("Settings → Channels against a real daemon and a fake Telegram Bot API", () => {
  test("add a channel through the form (a refused token first), see it connected, pair a phone with the code on the page", async () => {
    await nav("Channels").click();
    await page.getByRole("heading", { name: "Channels", level: 1 }).waitFor();
    await page.getByText("No channels yet.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Add channel" }).first().click();
    const form = page.getByRole("form", { name: "Add channel" });
    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Phone");
    expect(await form.getByRole("combobox", { name: "Default agent" }).inputValue()).not.toBe("");

    // No credential yet: the token is stored in place. A token Telegram does not know is refused, nothing is lost.
    await form.getByRole("textbox", { name: "Credential name" }).fill("tg-wrong");
    await form.getByLabel("New bot token").fill("999:not-a-bot");
    await form.getByRole("button", { name: "Save token" }).click();
    // Stored: the in-place fields fold away and the new ref is the one picked.
    await form.getByRole("button", { name: "Store a new token" }).waitFor();
    expect(await form.getByRole("combobox", { name: "Bot token" }).inputValue()).toBe("tg-wrong");
    await form.getByRole("button", { name: "Add channel" }).click();
    const refusal = form.getByRole("alert");
    await refusal.waitFor();
    expect(await form.getByRole("combobox", { name: "Bot token" }).getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByRole("textbox", { name: "Name", exact: true }).inputValue()).toBe("Phone");
    await shotsEverywhere("01-token-refused", () => refusal.waitFor());

    await form.getByRole("button", { name: "Store a new token" }).click();
    await form.getByRole("textbox", { name: "Credential name" }).fill("tg-phone");
    await form.getByLabel("New bot token").fill(BOT.token);
    await form.getByRole("button", { name: "Save token" }).click();
    await form.getByRole("button", { name: "Store a new token" }).waitFor();
    expect(await form.getByRole("combobox", { name: "Bot token" }).inputValue()).toBe("tg-phone");
    expect(await page.content()).not.toContain(BOT.token);
    await form.getByRole("button", { name: "Add channel" }).click();

    // The list re-reads itself while open: the poller's state arrives without a reload.
    const connected = card("Connected");
    await connected.waitFor();
    await connected.getByText(`@${BOT.username}`).waitFor();
    await connected.getByText("Not paired").waitFor();
    await shotsEverywhere("02-connected", () => connected.waitFor());

    await connected.getByRole("button", { name: "Pair phone with Phone" }).click();
    const dialog = page.getByRole("dialog", { name: "Pair a phone with Phone" });
    const codeBox = dialog.getByRole("status", { name: "Pairing code" });
    await codeBox.waitFor();
    const code = (await codeBox.textContent())!.trim();
    expect(code).toMatch(CODE);
    await dialog.getByText(/valid for (59|60) min/).waitFor();
    await dialog.getByText(`@${BOT.username}`).waitFor();
    await dialog.getByRole("img", { name: /^QR code of / }).waitFor();
    expect(await dialog.getByRole("link").first().textContent()).toContain(code);
    await shotsEverywhere("03-pair-code", () => codeBox.waitFor());

    await tg.userSays({ chatId: ADA.id, from: ADA, text: code });
    await dialog.getByText("Paired with Ada").waitFor();
    await shot(page, "ch-04-paired-1440-light");
    await dialog.getByRole("button", { name: "Done" }).click();
    await card("Connected").getByText(/^Paired with Ada · /).waitFor();
    const { channels } = await get<ChannelListOut>("/channels");
    expect(channels.map((c) => [c.name, c.owner?.name, c.status.state])).toEqual([["Phone", "Ada", "polling"]]);
    await shotsEverywhere("05-paired", () => card("Connected").getByText(/^Paired with Ada/).waitFor());
  });

  test("disable and enable from the card; delete asks first and keeps the conversations", async () => {
    await card("Connected").getByRole("button", { name: "Disable Phone" }).click();
    await card("Disabled").waitFor();
    await card("Disabled").getByRole("button", { name: "Enable Phone" }).click();
    await card("Connected").waitFor();
    await card("Connected").getByRole("button", { name: "Delete Phone" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete 'Phone'?" });
    await confirm.getByText("conversations stay in history", { exact: false }).waitFor();
    await shot(page, "ch-06-delete-confirm-1440-light");
    await confirm.getByRole("button", { name: "Delete channel" }).click();
    await page.getByText("No channels yet.", { exact: false }).waitFor();
    expect((await get<ChannelListOut>("/channels")).channels).toEqual([]);
  });
});

describe("Settings → Channels: a Discord channel against the fake Discord (REST + gateway)", () => {
  test("[026-second-platform] Settings → Channels adds and pairs a Discord channel", async () => {
    await nav("Channels").click();
    await page.getByRole("heading", { name: "Channels", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Add channel" }).first().click();
    const form = page.getByRole("form", { name: "Add channel" });
    await page.getByText("through your own bot on Telegram or Discord.", { exact: false }).waitFor();
    // The platforms are the daemon's registered ones; the form's fields come from Discord's declaration.
    const platform = form.getByRole("combobox", { name: "Platform" });
    expect(await platform.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).label))).toEqual(["Telegram", "Discord"]);
    await platform.selectOption({ label: "Discord" });
    await form.getByText("Discord Developer Portal", { exact: false }).waitFor();
    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Desk");
    // With credentials stored already (the Telegram case before) the store fields are folded away.
    const storeNew = form.getByRole("button", { name: "Store a new token" });
    if (await storeNew.isVisible()) await storeNew.click();
    expect(await form.getByRole("textbox", { name: "Credential name" }).inputValue()).toBe("discord-bot-token");
    await form.getByLabel("New bot token").fill(dc.token);
    await shotsEverywhere("discord-01-form", () => form.getByLabel("New bot token").waitFor());
    await form.getByRole("button", { name: "Save token" }).click();
    await form.getByRole("button", { name: "Store a new token" }).waitFor();
    expect(await form.getByRole("combobox", { name: "Bot token" }).inputValue()).toBe("discord-bot-token");
    expect(await page.content()).not.toContain(dc.token);
    await form.getByRole("button", { name: "Add channel" }).click();

    // Checked with the fake Discord (GET users/@me) and connected to its gateway.
    const connected = card("Connected", "Desk");
    await connected.waitFor();
    await connected.getByText(`@${dc.bot.username}`).waitFor();
    await connected.getByText("Not paired").waitFor();
    await dc.until(() => dc.sessions.some((s) => s.socket !== null));
    await shotsEverywhere("discord-02-connected", () => connected.waitFor());

    await connected.getByRole("button", { name: "Pair phone with Desk" }).click();
    const dialog = page.getByRole("dialog", { name: "Pair a phone with Desk" });
    const codeBox = dialog.getByRole("status", { name: "Pairing code" });
    await codeBox.waitFor();
    const code = (await codeBox.textContent())!.trim();
    expect(code).toMatch(CODE);
    // Discord has no deep link: no link and no QR code, the code goes in a DM to the bot.
    await dialog.getByText(`Send the code in a direct message to @${dc.bot.username}.`).waitFor();
    expect(await dialog.getByRole("link").count()).toBe(0);
    expect(await dialog.getByRole("img", { name: /^QR code of / }).count()).toBe(0);
    await shotsEverywhere("discord-03-pair-code", () => codeBox.waitFor());

    dc.userSays(DISCORD_OWNER, code);
    await dialog.getByText(`Paired with ${DISCORD_OWNER.username}`).waitFor();
    await shotsEverywhere("discord-04-paired", () => dialog.getByText(`Paired with ${DISCORD_OWNER.username}`).waitFor());
    await dialog.getByRole("button", { name: "Done" }).click();
    await card("Connected", "Desk").getByText(new RegExp(`^Paired with ${DISCORD_OWNER.username} · `)).waitFor();
    const { channels } = await get<ChannelListOut>("/channels");
    expect(channels.map((c) => [c.kind, c.name, c.owner?.name, c.status.state])).toEqual([["discord", "Desk", DISCORD_OWNER.username, "polling"]]);
    await shotsEverywhere("discord-05-paired", () => card("Connected", "Desk").getByText(/^Paired with /).waitFor());
  });
});

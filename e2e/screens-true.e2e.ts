import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { script } from "../packages/daemon/test/support/scripted-agent.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// Issue 22, E and F, in Chromium with the scripted agent: retry lines name the real give-up
// (COFFER_TURN_RETRY_GIVE_UP = 3 here, while the agent says its own cap is 10) and a failed
// turn says why once; an agent's question stays in the reply with its answer and surface.
let d: E2eDaemon;
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon({ COFFER_TURN_RETRY_GIVE_UP: "3" }), launchBrowser()]);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") for (const [i, p] of pages.entries()) await shot(p, `failed-${ctx.task.name.replace(/\W+/g, "-")}-${i}`);
  for (const p of pages.splice(0)) await p.context().close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

async function open(title: string): Promise<{ page: Page; id: string }> {
  const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
  const { page } = await newPage(browser);
  pages.push(page);
  await page.goto(`${d.daemon.url}/?token=${d.daemon.token}`);
  await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
  await page.goto(`${d.daemon.url}/chat/${id}`);
  await ui(page).composer.waitFor();
  return { page, id };
}

const refused = (attempt: number, afterMs?: number) => ({ retry: { attempt, max: 10, message: "connection refused", ...(afterMs ? { afterMs } : {}) } });

const PICK = {
  header: "Colour",
  text: "Which colour should the button be?",
  options: [
    { label: "Red", description: "warm and loud" },
    { label: "Blue", description: "calm" },
  ],
  multi_select: false,
  allow_free_text: true,
};

describe("what the screens show is true", () => {
  acceptance("022-screens-true", "retry lines say the real attempt and the give-up point, and a turn's failure is shown once", async () => {
    const { page, id } = await open("Retries");
    // The third notice comes late: the page has time to show the second.
    await d.api.post(`/chat/conversations/${id}/messages`, { text: script(refused(1), refused(2), refused(3, 3000)) });
    const retrying = ui(page).lastReply().getByTestId("retrying");
    await retrying.getByText("Retrying — attempt 2 of 3: connection refused", { exact: true }).waitFor();
    await shot(page, "22-retrying-attempt-of");
    const failed = ui(page).lastReply().getByText(/^Failed — the model API could not be reached after 3 attempts/);
    await failed.waitFor();
    // Said once: in the reply's footer, beside its Retry; no banner repeats it.
    expect(await ui(page).lastReply().getByText(/could not be reached after 3 attempts/).count()).toBe(1);
    expect(await page.locator(".thread-foot").getByText(/could not be reached/).count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
    await ui(page).lastReply().getByRole("button", { name: "Retry" }).waitFor();
    await shotAll(page, "22-failed-once");
  });

  test("an answered question stays in the reply with its answer and surface, live and after a reload; a single choice answers in one tap", async () => {
    const { page, id } = await open("Questions stay");
    await d.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "Let me check with you. " }, { ask: { questions: [PICK] } }, { text: " Going with that." }) });
    const card = page.getByRole("form", { name: "The agent asks you" });
    await card.getByText("choose an option to answer").waitFor();
    await shotAll(page, "22-question-open");
    // One tap: no Send.
    await card.getByRole("button", { name: /^Blue/ }).click();
    await ui(page).lastReply().getByText(/Going with that\./).waitFor();
    const kept = ui(page).lastReply().getByRole("region", { name: "The agent asked you" });
    await kept.getByText("Which colour should the button be?").waitFor();
    await kept.getByText("Blue", { exact: true }).waitFor();
    await kept.getByText("You answered from the page").waitFor();
    expect(await card.count()).toBe(0);
    // After a reload: the stored reply shows the same.
    await page.reload();
    const reloaded = ui(page).lastReply().getByRole("region", { name: "The agent asked you" });
    await reloaded.getByText("You answered from the page").waitFor();
    await reloaded.getByText("Blue", { exact: true }).waitFor();
    await shotAll(page, "22-question-answered");
  });

  test("a page whose answer lost the race is told which answer won", async () => {
    const { page, id } = await open("Lost race");
    await d.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [PICK] } }) });
    const card = page.getByRole("form", { name: "The agent asks you" });
    await card.waitFor();
    const qid = (await card.getAttribute("data-question-id"))!;
    // The CLI's answer reaches the daemon first; the page's is held until then.
    await page.route("**/questions/*/answer", async (route) => {
      await d.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["Red"] }] });
      await route.continue();
    });
    await card.getByRole("button", { name: /^Blue/ }).click();
    const kept = ui(page).lastReply().getByRole("region", { name: "The agent asked you" });
    await kept.getByText("You answered from the CLI").waitFor();
    await kept.getByText("Red", { exact: true }).waitFor();
    await kept.getByText("Your answer here was not sent: the CLI answered first.").waitFor();
    await shot(page, "22-question-lost-race");
  });
});

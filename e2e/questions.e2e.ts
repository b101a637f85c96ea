import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { script } from "../packages/daemon/test/support/scripted-agent.js";
import { newPage, shot } from "./support/browser.js";
import { browserRig } from "./support/rig.js";
import { ui } from "./support/ui.js";

const rig = browserRig();

async function open(path: string): Promise<Page> {
  const { page } = await newPage(rig.browser);
  rig.pages.push(page);
  await page.goto(`${rig.d.daemon.url}/?token=${rig.d.daemon.token}`);
  await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
  await page.goto(`${rig.d.daemon.url}${path}`);
  return page;
}

const PICK = {
  header: "Colour",
  text: "Which colour?",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
  multi_select: false,
  allow_free_text: true,
};

describe("agent questions on the page", () => {
  acceptance("014-owner-in-the-loop", "in Chromium the live page shows the question card in place of Thinking and an answer from the page resumes the turn", async () => {
    const created = await rig.d.api.post("/chat/conversations", { agent_key: "scripted", title: "Asks" });
    const id = created.body.id as string;
    const page = await open(`/chat/${id}`);
    await ui(page).composer.waitFor();
    await rig.d.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [PICK] } }) });
    const card = page.getByRole("form", { name: "The agent asks you" });
    await card.waitFor();
    await card.getByRole("status").getByText("Waiting for you").waitFor();
    expect(await ui(page).lastReply().getByText("Thinking").count()).toBe(0);
    await page.getByText("Waiting for you · answer the agent's question above").waitFor();
    await shot(page, "14-question-card");
    // Keyboard only: own words first, then back to Blue; one press answers (a single choice needs no Send).
    await card.getByRole("textbox").focus();
    await page.keyboard.type("navy");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Space");
    await ui(page).lastReply().getByText(`answers: ${JSON.stringify([{ selected: ["Blue"], text: "navy" }])}`).waitFor();
    expect(await card.count()).toBe(0);
    const asked = (await rig.d.api.get(`/chat/conversations/${id}/questions`)).body.questions;
    expect(asked).toMatchObject([{ state: "answered", by: "web", answers: [{ selected: ["Blue"], text: "navy" }] }]);
  });
});

import type { Locator, Page } from "playwright-core";

/** Role- and label-based handles on the Chat page (the e2e never selects by class). */
export const ui = (page: Page) => ({
  composer: page.getByRole("textbox", { name: /^Message / }),
  thread: page.getByRole("log", { name: "Messages" }),
  replies: page.getByRole("log", { name: "Messages" }).getByRole("article", { name: "Reply" }),
  queue: page.getByRole("list", { name: /^Queued messages/ }),
  history: page.getByRole("navigation", { name: "Conversations" }),
  send: page.getByRole("button", { name: "Send", exact: true }),
  queueButton: page.getByRole("button", { name: "Queue message" }),
  stop: page.getByRole("button", { name: "Stop", exact: true }),
  row: (title: string | RegExp): Locator => page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: title }),
  lastReply: () => page.getByRole("log", { name: "Messages" }).getByRole("article", { name: "Reply" }).last(),
});

/** Type into the composer and press Enter. */
export async function sendFromComposer(page: Page, text: string): Promise<void> {
  const { composer } = ui(page);
  await composer.fill(text);
  await composer.press("Enter");
}

/** Markers between paced filler: a reply whose exact text is known, streamed over ~`markers/10` s. */
export function pacedScript(markers: number, perSecond = 30): { script: string; expected: string } {
  const steps: unknown[] = [];
  let expected = "";
  for (let i = 0; i < markers; i++) {
    steps.push({ text: `<${i}>` }, { repeat: 3, text: ".", perSecond });
    expected += `<${i}>...`;
  }
  return { script: JSON.stringify({ script: steps }), expected };
}

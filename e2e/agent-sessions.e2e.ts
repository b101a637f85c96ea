import { describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { script } from "../packages/daemon/test/support/scripted-agent.js";
import { newPage, shot, shotAll } from "./support/browser.js";
import { browserRig } from "./support/rig.js";
import { ui } from "./support/ui.js";

// Issue 24 in Chromium with the scripted agent: when an agent's session was lost for good and
// restarted with the conversation so far, the reply opens with Coffer's one-line notice — live
// while the reply streams and after a reload. The scripted agent yields the notice as the Claude
// and Codex adapters do (packages/daemon/test/integration/agent-session-keeper.test.ts).
const NOTICE = "The agent had lost this conversation's session; it was restarted with the conversation so far.";
const rig = browserRig();

describe("the agent's side of a conversation, on the page", () => {
  acceptance(
    "024-agent-sessions",
    "the page shows the one-line notice at the top of the reply, live and after a reload, at desktop and phone size, light and dark",
    async () => {
      const id = (await rig.d.api.post("/chat/conversations", { agent_key: "scripted", title: "Zorro the cat" })).body.id as string;
      const { page } = await newPage(rig.browser);
      rig.pages.push(page);
      await page.goto(`${rig.d.daemon.url}/?token=${rig.d.daemon.token}`);
      await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
      await page.goto(`${rig.d.daemon.url}/chat/${id}`);
      await ui(page).composer.waitFor();

      // Streamed slowly enough to be seen while the reply is still being written.
      const reply = "Your cat is called Zorro, as you told me earlier. ";
      const sub = await rig.d.subscribe(id);
      await rig.d.api.post(`/chat/conversations/${id}/messages`, {
        text: script({ notice: NOTICE }, { text: reply }, { repeat: 30, text: "·", perSecond: 15 }),
      });
      const notice = ui(page).lastReply().getByRole("note");
      await notice.getByText(NOTICE, { exact: true }).waitFor();
      await ui(page).lastReply().getByText(/Your cat is called Zorro/).waitFor();
      await shot(page, "24-notice-live");
      await sub.waitFor((e) => e.type === "turn_done");
      sub.close();

      await page.reload();
      const kept = ui(page).lastReply().getByRole("note");
      await kept.getByText(NOTICE, { exact: true }).waitFor();
      expect(await ui(page).lastReply().getByRole("note").count()).toBe(1);
      // One line, above the reply's words.
      const [noteBox, textBox] = await Promise.all([kept.boundingBox(), ui(page).lastReply().getByText(/Your cat is called Zorro/).boundingBox()]);
      expect(noteBox!.y + noteBox!.height).toBeLessThanOrEqual(textBox!.y);
      expect(noteBox!.height).toBeLessThan(30);
      await shotAll(page, "24-notice");
    },
    60_000,
  );
});

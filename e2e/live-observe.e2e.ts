import type { Page } from "playwright-core";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { newPage, shot } from "./support/browser.js";
import { startE2eDaemon } from "./support/daemon.js";
import { browserRig } from "./support/rig.js";
import { hermeticPath } from "../packages/daemon/test/fakes/agent-rig.js";
import { startTcpProxy } from "../packages/daemon/test/support/tcp-proxy.js";
import { pacedScript, ui } from "./support/ui.js";

const CLI = fileURLToPath(new URL("../packages/cli/src/main.ts", import.meta.url));
const run = promisify(execFile);

const rig = browserRig();

async function open(url: string, path = "/chat", token = rig.d.daemon.token): Promise<Page> {
  const { page } = await newPage(rig.browser);
  rig.pages.push(page);
  await page.goto(`${url}/?token=${token}`);
  // The page trades the token for a session before it stores anything: navigate on after that.
  await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
  if (path !== "/chat") await page.goto(`${url}${path}`);
  return page;
}

async function conversation(body: Record<string, unknown> = {}): Promise<string> {
  const res = await rig.d.api.post("/chat/conversations", { agent_key: "scripted", ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("following turns the page did not start", () => {
  acceptance("008-agent-chat", "observe a turn started from another surface", async () => {
    const id = await conversation({ title: "Started from the CLI" });
    const page = await open(rig.d.daemon.url, `/chat/${id}`);
    await ui(page).composer.waitFor();
    const slow = pacedScript(30);
    // The real `coffer` CLI starts the turn; the open page never sent anything.
    const cli = run(process.execPath, ["--import", "tsx", CLI, "chat", "send", id, slow.script], {
      env: { PATH: hermeticPath(join(rig.d.home, "bin")), HOME: rig.d.home, COFFER_HOME: rig.d.home }, // never the developer's environment
      timeout: 30_000,
    });
    await ui(page).lastReply().getByText("<2>", { exact: false }).waitFor();
    expect(await ui(page).stop.isVisible()).toBe(true); // the page knows a turn runs
    await shot(page, "11-observed-cli-turn");
    const { stdout } = await cli;
    expect(stdout).toContain(slow.expected);
    await ui(page).lastReply().getByText(/scripted-1 · 10 in/).waitFor();
    expect(await ui(page).lastReply().locator("p").first().textContent()).toBe(slow.expected);
  });

  acceptance("008-agent-chat", "a channel-driven conversation is observable from the console", async () => {
    const id = await conversation({ title: "From my phone", channel_binding: { channel: "telegram", chat_id: "4242" } });
    const page = await open(rig.d.daemon.url);
    const row = ui(page).row(/From my phone/);
    await row.waitFor();
    expect(await row.textContent()).toContain("via Telegram"); // the badge
    await row.click();
    await page.getByRole("region", { name: "From my phone" }).getByText("via Telegram", { exact: true }).waitFor();
    // The channel drives the turn through the same API; the console streams it live.
    const slow = pacedScript(20);
    const sent = await rig.d.api.post(`/chat/conversations/${id}/messages`, { text: slow.script, client_id: "telegram-update-1" });
    expect(sent.status).toBe(202);
    await ui(page).lastReply().getByText("<1>", { exact: false }).waitFor();
    await ui(page).row(/From my phone/).getByText("Running").waitFor({ state: "attached" });
    await shot(page, "12-channel-conversation");
    await ui(page).lastReply().getByText(/scripted-1 · 10 in/).waitFor();
    expect(await ui(page).lastReply().locator("p").first().textContent()).toBe(slow.expected);
  });

  test("a second page on the same conversation sees the same turn token by token", async () => {
    const id = await conversation({ title: "Two windows" });
    const [a, b] = [await open(rig.d.daemon.url, `/chat/${id}`), await open(rig.d.daemon.url, `/chat/${id}`)];
    const slow = pacedScript(30);
    await ui(a).composer.fill(slow.script);
    await ui(a).composer.press("Enter");
    // Page B sees the reply grow while it is still streaming, not just the end result.
    await ui(b).lastReply().getByText("<3>", { exact: false }).waitFor();
    expect(await ui(b).lastReply().getAttribute("aria-busy")).toBe("true");
    await Promise.all([a, b].map((p) => ui(p).lastReply().getByText(/scripted-1 · 10 in/).waitFor()));
    for (const p of [a, b]) expect(await ui(p).lastReply().locator("p").first().textContent()).toBe(slow.expected);
  });

  test("a connection cut mid-turn resumes: the reply shows once and complete", async () => {
    let target = 0;
    const proxy = await startTcpProxy(() => target);
    // A relay on another port is what the daemon proof refuses by design; this daemon is told
    // the relay's port, a test-only seam (docs/decisions.md, "Daemon proof").
    const behind = await startE2eDaemon({ COFFER_TEST_PROOF_PORT: String(proxy.port) });
    target = behind.daemon.port;
    try {
      const id = (await behind.api.post("/chat/conversations", { agent_key: "scripted", title: "Flaky network" })).body.id as string;
      const page = await open(proxy.url, `/chat/${id}`, behind.daemon.token);
      await ui(page).composer.waitFor();
      const slow = pacedScript(60);
      await behind.api.post(`/chat/conversations/${id}/messages`, { text: slow.script });
      for (const marker of ["<5>", "<20>", "<40>"]) {
        await ui(page).lastReply().getByText(marker, { exact: false }).waitFor();
        expect(proxy.dropAll()).toBeGreaterThan(0);
      }
      await ui(page).lastReply().getByText(/scripted-1 · 10 in/).waitFor();
      expect(await ui(page).lastReply().locator("p").first().textContent()).toBe(slow.expected);
      expect(await ui(page).replies.count()).toBe(1);
      expect(await ui(page).lastReply().getAttribute("aria-busy")).not.toBe("true"); // no bubble left spinning
    } finally {
      await proxy.close();
      await behind.stop();
    }
  });
});

/**
 * The page's half of "a 60 MB file is refused with a clear message on every surface" (issue 25;
 * the daemon's, the CLI's and the phone's are packages/cli/test/attach-oversize.test.ts, tagged
 * with the same scenario). Its own daemon at the DEFAULT cap (COFFER_ATTACHMENT_MAX_MB unset:
 * 50 MB), not composer-attach's 2 MB one, so the words the owner reads are the real ones.
 * The 60 MB file is made in the page (a File of zeros), never written to disk nor sent over CDP.
 */
import type { Browser, Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

let d: E2eDaemon;
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") for (const [i, p] of pages.entries()) await shot(p, `failed-${ctx.task.name.replace(/\W+/g, "-")}-${i}`);
  for (const p of pages.splice(0)) await p.context().close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

/** Drops a `mb` MB file of zeros, built in the page, onto the composer (dragover, then drop, as a mouse does). */
async function dropGenerated(page: Page, name: string, type: string, mb: number): Promise<void> {
  await page.evaluate(
    ([fileName, fileType, size]) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(size)], fileName, { type: fileType }));
      const box = document.querySelector<HTMLTextAreaElement>("textarea[aria-label^='Message ']")!;
      for (const kind of ["dragover", "drop"]) box.dispatchEvent(new DragEvent(kind, { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    [name, type, mb * 1024 * 1024] as const,
  );
}

describe("the composer refuses a file over the daemon's cap", () => {
  acceptance("025-attachments", "a 60 MB file is refused with a clear message on every surface", async () => {
    expect((await d.api.get("/attachments/limits")).body).toEqual({ max_bytes: 50 * 1024 * 1024 });
    const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Screen recording" })).body.id as string;
    const { page } = await newPage(browser);
    pages.push(page);
    // Every upload the page tries (POST /attachments), whatever its answer: there must be none.
    const uploads: Request[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname.startsWith("/api/v1/attachments")) uploads.push(r);
    });
    await page.goto(d.openUrl);
    await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
    await page.goto(`${d.daemon.url}/chat/${id}`);
    const { composer } = ui(page);
    await composer.waitFor();
    await composer.fill("here is the recording");

    await dropGenerated(page, "recording.mov", "video/quicktime", 60);
    // Inline, beside the composer, with the file, its size and the cap in the words.
    const refusal = page.getByRole("alert").filter({ hasText: "recording.mov" });
    await refusal.waitFor();
    expect((await refusal.textContent())?.trim()).toBe("recording.mov is 60 MB, over the 50 MB limit for one file.");
    expect(await page.getByRole("list", { name: "Files to send" }).count()).toBe(0);
    // Nothing went up, nothing was kept, nothing was sent; the owner's words stay in the box.
    expect(uploads).toEqual([]);
    expect((await d.api.get("/system/stats")).body.attachments).toEqual({ count: 0, files: 0, bytes: 0 });
    expect((await d.api.get(`/chat/conversations/${id}/messages`)).body.messages).toEqual([]);
    expect(await composer.inputValue()).toBe("here is the recording");
    await shotAll(page, "25-composer-oversize");

    // Dismissed, it goes; the message then sends as text alone.
    await refusal.getByRole("button", { name: "Dismiss" }).click();
    await refusal.waitFor({ state: "detached" });
    const sub = await d.subscribe(id);
    await composer.press("Enter");
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    const sent = (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages.filter((m: { role: string }) => m.role === "user");
    expect(sent.map((m: { content: { text: string }[]; attachments?: unknown[] }) => [m.content[0]!.text, m.attachments ?? []])).toEqual([["here is the recording", []]]);
    expect(uploads).toEqual([]);
  });
});

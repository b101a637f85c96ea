import { randomBytes } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// A daemon whose cap on one file is 2 MB, so a size refusal and a slow "large" upload both fit
// in a test's time (the daemon's own option, COFFER_ATTACHMENT_MAX_MB).
const CAP_MB = 2;
let d: E2eDaemon;
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon({ COFFER_ATTACHMENT_MAX_MB: String(CAP_MB) }), launchBrowser()]);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") for (const [i, p] of pages.entries()) await shot(p, `failed-${ctx.task.name.replace(/\W+/g, "-")}-${i}`);
  for (const p of pages.splice(0)) await p.context().close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

/** A signed-in page on `path` (the login code is traded for a session first). */
async function open(path: string, options: Parameters<typeof newPage>[1] = {}): Promise<Page> {
  const { page } = await newPage(browser, options);
  pages.push(page);
  await page.goto(d.openUrl);
  await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
  await page.goto(`${d.daemon.url}${path}`);
  await ui(page).composer.waitFor();
  return page;
}

async function conversation(title: string): Promise<string> {
  return (await d.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
}

/** A real PNG drawn by the browser (a gradient with a mark), as bytes: what a screenshot file is. */
async function drawnPng(page: Page, width: number, height: number, hue: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    ([w, h, hueAt]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      const g = canvas.getContext("2d")!;
      const fill = g.createLinearGradient(0, 0, w, h);
      fill.addColorStop(0, `hsl(${hueAt} 70% 55%)`);
      fill.addColorStop(1, `hsl(${hueAt + 60} 70% 40%)`);
      g.fillStyle = fill;
      g.fillRect(0, 0, w, h);
      g.fillStyle = "white";
      g.fillRect(w * 0.15, h * 0.3, w * 0.7, h * 0.12);
      return canvas.toDataURL("image/png").split(",")[1]!;
    },
    [width, height, hue] as const,
  );
  return Buffer.from(base64, "base64");
}

/** Hands files to the page as a paste or a drop would: a DataTransfer built in the page from these bytes. */
async function transfer(page: Page, kind: "paste" | "drop" | "dragover", files: { name: string; type: string; bytes: Buffer }[]): Promise<void> {
  await page.evaluate(
    ([how, list]) => {
      const data = new DataTransfer();
      for (const f of list) data.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      const box = document.querySelector<HTMLTextAreaElement>("textarea[aria-label^='Message ']")!;
      if (how === "paste") box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
      else box.dispatchEvent(new DragEvent(how, { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    [kind, files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString("base64") }))] as const,
  );
}

const chips = (page: Page) => page.getByRole("list", { name: "Files to send" });
const chip = (page: Page, name: string) => chips(page).getByRole("listitem").filter({ hasText: name });

/** The chip's upload is done: its size shows without "uploading", and Send is no longer held. */
async function uploaded(page: Page, name: string): Promise<void> {
  await chip(page, name).getByText(/^[\d.]+ (B|KB|MB)$/).waitFor();
}

describe("the composer takes files", () => {
  acceptance(
    "025-attachments",
    "the page's composer attaches files by button, paste and drop, shows removable chips with thumbnail, name and size, and refuses a type or size before sending",
    async () => {
      const id = await conversation("Login bug");
      const page = await open(`/chat/${id}`);
      const { composer, thread } = ui(page);
      const before = (await d.api.get("/system/stats")).body.attachments.count as number;

      // By the button: the file chooser takes a screenshot and a log.
      const shotPng = await drawnPng(page, 640, 400, 210);
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
      expect(chooser.isMultiple()).toBe(true);
      await chooser.setFiles([
        { name: "login-error.png", mimeType: "image/png", buffer: shotPng },
        { name: "server.log", mimeType: "text/plain", buffer: Buffer.from("GET /login 500\n".repeat(100)) },
      ]);
      await uploaded(page, "login-error.png");
      await uploaded(page, "server.log");
      // The image has a thumbnail (decoded, from the picked bytes); the log shows its type instead.
      const thumb = chips(page).getByRole("img", { name: "login-error.png" });
      await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>("ul[aria-label='Files to send'] img")].every((i) => i.complete && i.naturalWidth > 0));
      expect(await thumb.count()).toBe(1);
      expect(await chip(page, "server.log").textContent()).toContain("1.5 KB");
      expect(await chip(page, "server.log").getByText("LOG", { exact: true }).count()).toBe(1);

      // Paste: a screenshot from the clipboard gets a name that tells it apart.
      await composer.click();
      await transfer(page, "paste", [{ name: "image.png", type: "image/png", bytes: await drawnPng(page, 300, 300, 20) }]);
      const pasted = chips(page).getByRole("listitem").filter({ hasText: /^pasted-\d{8}-\d{6}\.png/ });
      await pasted.getByText(/^[\d.]+ (B|KB|MB)$/).waitFor();

      // Drop: while files are dragged over the composer it shows itself as the drop target.
      const pdf = Buffer.from("%PDF-1.4\n% a tiny spec\n");
      await transfer(page, "dragover", [{ name: "spec.pdf", type: "application/pdf", bytes: pdf }]);
      await page.getByText("Drop to attach").waitFor();
      await shotAll(page, "25-composer-drop-target");
      await transfer(page, "drop", [{ name: "spec.pdf", type: "application/pdf", bytes: pdf }]);
      await uploaded(page, "spec.pdf");
      expect(await page.getByText("Drop to attach").count()).toBe(0);
      expect(await chips(page).getByRole("listitem").count()).toBe(4);
      await composer.fill("The login page fails like this — screenshot, log, spec.");
      await shotAll(page, "25-composer-chips");

      // Remove, by the keyboard: the × is a button in the tab order.
      await chip(page, "spec.pdf").getByRole("button", { name: "Remove spec.pdf" }).focus();
      await page.keyboard.press("Enter");
      await chip(page, "spec.pdf").waitFor({ state: "detached" });
      expect(await chips(page).getByRole("listitem").count()).toBe(3);

      // Refused before anything is sent: over the cap, empty, a folder is not a file. Each says which and why.
      const uploadsNow = (await d.api.get("/system/stats")).body.attachments.count as number;
      const [again] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
      await again.setFiles([
        { name: "huge-dump.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc((CAP_MB + 1) * 1024 * 1024, 1) },
        { name: "empty.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) },
      ]);
      const refusals = page.getByRole("alert").filter({ hasText: /huge-dump\.bin|empty\.txt/ });
      await refusals.filter({ hasText: "huge-dump.bin" }).waitFor();
      expect(await refusals.filter({ hasText: "huge-dump.bin" }).textContent()).toContain(`huge-dump.bin is ${CAP_MB + 1} MB, over the ${CAP_MB} MB limit for one file.`);
      expect(await refusals.filter({ hasText: "empty.txt" }).textContent()).toContain("empty.txt is empty (0 bytes)");
      expect(await chip(page, "huge-dump.bin").count()).toBe(0);
      // Nothing reached the daemon for them (not even a refused upload).
      expect((await d.api.get("/system/stats")).body.attachments.count).toBe(uploadsNow);
      await shotAll(page, "25-composer-refusals");

      // Send: the message carries its three files in order, and says so after a reload.
      const sub = await d.subscribe(id);
      await composer.press("Enter");
      await sub.waitFor((e) => e.type === "turn_done");
      sub.close();
      expect(await chips(page).count()).toBe(0);
      expect(await refusals.count()).toBe(0);
      const sent = (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages.filter((m: { role: string }) => m.role === "user").at(-1);
      expect(sent.attachments.map((a: { name: string }) => a.name)).toEqual(["login-error.png", "server.log", expect.stringMatching(/^pasted-.*\.png$/)]);
      expect((await d.api.get("/system/stats")).body.attachments.count).toBe(before + 4); // the removed PDF was uploaded too (swept unsent)
      await page.reload();
      const files = thread.getByRole("list", { name: "Attachments" }).last();
      await files.getByRole("img", { name: "login-error.png" }).waitFor();
      await files.getByRole("button", { name: /server\.log/ }).waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>(".attachment-thumb img")].every((i) => i.complete && i.naturalWidth > 0));
      await page.setViewportSize({ width: 390, height: 844 });
      await files.scrollIntoViewIfNeeded(); // on a phone the message is above the reply; the shots keep this scroll
      await shotAll(page, "25-composer-sent-after-reload");
      // On a phone the thread follows its newest reply: the sent message's files, scrolled to, in one more shot.
      await files.evaluate((el) => el.scrollIntoView({ block: "center" }));
      await shot(page, "25-composer-sent-after-reload-phone-files");
    },
  );

  acceptance("025-attachments", "the page shows progress while a large file uploads", async () => {
    const id = await conversation("Big upload");
    const page = await open(`/chat/${id}`);
    // The upload is slowed by Chromium's own network emulation (256 KB/s), so it is seen mid-way.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
    await chooser.setFiles([{ name: "trace.bin", mimeType: "application/octet-stream", buffer: randomBytes(Math.round(1.8 * 1024 * 1024)) }]);
    const progress = page.getByRole("progressbar", { name: "Uploading trace.bin" });
    await progress.waitFor();
    // Part way: a value above zero and below one, while Send waits for it.
    await page.waitForFunction(() => {
      const bar = document.querySelector<HTMLProgressElement>("progress[aria-label='Uploading trace.bin']");
      return bar !== null && bar.value > 0 && bar.value < 1;
    });
    expect(await ui(page).send.getAttribute("aria-disabled")).toBe("true");
    expect(await page.getByText(/Uploading a file… Send waits for it/).count()).toBe(1);
    await shot(page, "25-composer-progress-desktop-light");
    await uploaded(page, "trace.bin");
    expect(await progress.count()).toBe(0);
    expect(await ui(page).send.getAttribute("aria-disabled")).toBe("false");
  });

  test("an upload that fails shows on its chip with Retry and ×, holds Send, and a retry once back online sends it", async () => {
    const id = await conversation("Flaky network");
    const page = await open(`/chat/${id}`);
    // One file first, online: the page has all it needs to take files (its chunks) before the network goes.
    const [first] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
    await first.setFiles([{ name: "warm-up.txt", mimeType: "text/plain", buffer: Buffer.from("x") }]);
    await uploaded(page, "warm-up.txt");
    await chip(page, "warm-up.txt").getByRole("button", { name: "Remove warm-up.txt" }).click();
    // Chromium's own network emulation takes the page offline (the daemon stays up).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
    await chooser.setFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("remember the milk\n") }]);
    const retry = chip(page, "notes.txt").getByRole("button", { name: "Retry uploading notes.txt" });
    await retry.waitFor();
    expect(await chip(page, "notes.txt").textContent()).toContain("Not uploaded");
    await page.getByText("A file did not upload · retry or remove it to send").waitFor();
    await ui(page).composer.fill("the list");
    await ui(page).composer.press("Enter");
    expect(await ui(page).composer.inputValue()).toBe("the list"); // nothing was sent
    await shotAll(page, "25-composer-upload-failed");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await retry.click();
    await uploaded(page, "notes.txt");
    const sub = await d.subscribe(id);
    await ui(page).composer.press("Enter");
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    const sent = (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages.find((m: { role: string }) => m.role === "user");
    expect(sent.attachments.map((a: { name: string }) => a.name)).toEqual(["notes.txt"]);
  });

  test("a files-only first message from a new chat, chips that survive a reload, and a queued row's files (files never steer)", async () => {
    const page = await open("/", { width: 390, height: 844, touch: true });
    await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
    await chooser.setFiles([{ name: "whiteboard.png", mimeType: "image/png", buffer: await drawnPng(page, 800, 600, 120) }]);
    await uploaded(page, "whiteboard.png");
    // The draft keeps its chip across a reload (the bytes are on the daemon already).
    await page.reload();
    await uploaded(page, "whiteboard.png");
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>("ul[aria-label='Files to send'] img")].every((i) => i.complete && i.naturalWidth > 0));
    await shotAll(page, "25-composer-draft-chip-phone");
    // No text: the file alone is the message.
    expect(await ui(page).send.getAttribute("aria-disabled")).toBe("false");
    await ui(page).send.click();
    await page.waitForURL(/\/chat\/[^/]+$/);
    const id = decodeURIComponent(page.url().split("/chat/")[1]!);
    await ui(page).thread.getByRole("img", { name: "whiteboard.png" }).waitFor();
    // The first turn (an echo) has ended before the next part starts one of its own.
    const firstTurn = await d.subscribe(id);
    if ((await d.api.get(`/chat/conversations/${id}`)).body.running) await firstTurn.waitFor((e) => e.type === "turn_done");
    firstTurn.close();
    const first = (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages[0];
    expect(first.content).toEqual([{ type: "text", text: "" }]);
    expect(first.attachments.map((a: { name: string }) => a.name)).toEqual(["whiteboard.png"]);

    // While a turn runs, a message with files is queued, even by the steer keys; the row names its files.
    const sub = await d.subscribe(id);
    await d.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "working " }, { await_steer: true }, { text: " done" }) });
    await ui(page).stop.waitFor();
    await ui(page).composer.fill("and this log");
    const [more] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
    await more.setFiles([{ name: "crash.log", mimeType: "text/plain", buffer: Buffer.from("panic: nil map\n") }]);
    await uploaded(page, "crash.log");
    expect(await page.getByRole("button", { name: /^Steer/ }).count()).toBe(0);
    await page.getByText("Send queues it with its files after this turn").waitFor();
    await ui(page).composer.press("Control+Enter");
    const row = page.getByLabel("Files of queued message 1");
    await row.getByText("crash.log").waitFor();
    await shotAll(page, "25-composer-queued-files");
    // A text-only steer still steers; the turn ends and the queued message runs with its file.
    await ui(page).composer.fill("go on");
    await ui(page).composer.press("Control+Enter");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    sub.close();
    const users = (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages.filter((m: { role: string }) => m.role === "user");
    expect(users.at(-1).attachments.map((a: { name: string }) => a.name)).toEqual(["crash.log"]);
    expect(users.at(-1).content[0].text).toBe("and this log");
  });
});

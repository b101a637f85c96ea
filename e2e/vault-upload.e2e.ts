/**
 * Issue 15 on the Vault and Settings pages, in Chromium against a real daemon: uploads from the
 * browser (files, a folder, a drop) into the same import and progress, a skill written in the
 * page, the credential picker, markdown in the document viewer and snippets, and retention
 * that never surprises (the archived row's deletion date, Keep conversations forever).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

const SPEC = "015-page-basics";
let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let files: string;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  files = join(d.home, "browser-files");
});
// A fresh context per test; each test makes the vault items it needs.
beforeEach(async () => {
  ({ context, page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `vu-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const nav = (name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

function write(path: string, text: string | Buffer): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** Picks through the browser's own file chooser, as the owner would. */
async function choose(button: string, paths: string | string[]): Promise<void> {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: button }).click();
  await (await chooser).setFiles(paths);
}

async function openBase(name: string): Promise<void> {
  await nav("Knowledge").click();
  await page.getByRole("button", { name: "New knowledge base" }).first().click();
  await page.getByRole("textbox", { name: "Name" }).fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await page.getByRole("heading", { name: `${name} · documents` }).waitFor();
}

describe("uploads from the browser", () => {
  acceptance(SPEC, "knowledge: files, a folder and a drop from the browser import with the same progress and skip reasons", async () => {
    const dir = join(files, "handbook");
    write(join(dir, "guide.md"), "# On-call guide\n\nPage the **secondary** after 15 minutes.\n\n- check the dashboard\n- open an incident\n");
    write(join(dir, "sub", "escalation.md"), "## Escalation\n\nThe *canary* alarm wakes the secondary.\n");
    write(join(dir, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    const lone = write(join(files, "lone.txt"), "A lone text file about rollbacks.\n");
    await openBase("handbook");

    // A folder, through the browser's folder chooser: paths inside it are kept, a PNG is skipped with its reason.
    await choose("Choose folder", dir);
    const bar = page.getByRole("progressbar", { name: "Importing handbook" });
    await bar.waitFor();
    await page.getByText("Import finished").waitFor();
    expect(await bar.getAttribute("aria-valuenow")).toBe("3");
    await page.getByRole("list", { name: "Skipped files" }).getByText("handbook/logo.png").waitFor();
    const docs = page.getByRole("table", { name: "Documents in handbook" });
    await docs.getByRole("row").filter({ hasText: "handbook/sub/escalation.md" }).waitFor();
    await shot(page, "vu-01-knowledge-folder-upload");

    // Files, through the file chooser.
    await choose("Choose files", [lone]);
    await page.getByRole("progressbar", { name: "Importing lone.txt" }).waitFor();
    await docs.getByRole("row").filter({ hasText: "lone.txt" }).waitFor();

    // A drop on the area (a synthetic drop: the DataTransfer a drag from the desktop would carry).
    const zone = page.getByRole("group", { name: "Upload documents" });
    const dropped = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["# Dropped\n\nNotes about the **blue-green** switch.\n"], "dropped.md", { type: "text/markdown" }));
      return dt;
    });
    await zone.dispatchEvent("dragover", { dataTransfer: dropped });
    await zone.getByText("Drop to upload").waitFor();
    await zone.dispatchEvent("drop", { dataTransfer: dropped });
    await page.getByRole("progressbar", { name: "Importing dropped.md" }).waitFor();
    await docs.getByRole("row").filter({ hasText: "dropped.md" }).waitFor();

    // A drop anywhere on the documents section (here the table beside the box) takes the same path;
    // under the drag the section shows itself as the target.
    const section = page.getByRole("region", { name: "handbook · documents" });
    const beside = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["# Beside\n\nDropped on the table, not the box.\n"], "beside.md", { type: "text/markdown" }));
      return dt;
    });
    await docs.dispatchEvent("dragover", { dataTransfer: beside });
    await zone.getByText("Drop to upload").waitFor();
    expect(await section.getAttribute("data-drop-over")).toBe("");
    await shot(page, "vu-01b-knowledge-section-drag-over");
    await docs.dispatchEvent("drop", { dataTransfer: beside });
    await page.getByRole("progressbar", { name: "Importing beside.md" }).waitFor();
    await docs.getByRole("row").filter({ hasText: "beside.md" }).waitFor();
    expect(await section.getAttribute("data-drop-over")).toBeNull();
    const listed = (await d.api.get("/knowledge")).body.knowledge_bases.find((b: { name: string }) => b.name === "handbook");
    expect(listed.documents).toBe(5);
  });

  acceptance(SPEC, "knowledge: a markdown document and its search snippets render as markdown, and the document's HTML never runs", async () => {
    const dir = join(files, "rendered");
    write(join(dir, "deploy.md"), "# Deploying\n\nThe **canary** checks run before the switch.\n\n```sh\nmake deploy\n```\n");
    write(
      join(dir, "evil.md"),
      '# Evil\n\n<img src="x" onerror="window.__xss = 1"><script>window.__xss = 2</script>\n\nThe canary is fine.\n',
    );
    await openBase("rendered");
    await choose("Choose folder", dir);
    await page.getByText("Import finished").waitFor();
    await page.getByRole("button", { name: "View rendered/deploy.md" }).click();
    const viewer = page.getByLabel("Content of rendered/deploy.md");
    await viewer.getByRole("heading", { name: "Deploying" }).waitFor();
    expect(await viewer.locator("strong").textContent()).toBe("canary");
    await viewer.getByRole("button", { name: "Copy code" }).waitFor();
    // The source is one click away.
    await page.getByRole("button", { name: "Source" }).click();
    expect(await page.getByLabel("Content of rendered/deploy.md").textContent()).toContain("# Deploying");

    await page.getByRole("button", { name: "View rendered/evil.md" }).click();
    await page.getByLabel("Content of rendered/evil.md").getByRole("heading", { name: "Evil" }).waitFor();
    await page.getByRole("searchbox", { name: "Search knowledge" }).fill("canary");
    const hits = page.getByRole("list", { name: "Knowledge matches" });
    const deployHit = hits.getByRole("listitem").filter({ hasText: "rendered/deploy.md" });
    await deployHit.locator("mark", { hasText: "canary" }).waitFor();
    expect(await deployHit.locator("strong mark").count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator("main script, main [onerror]").count()).toBe(0);
    await shot(page, "vu-02-knowledge-markdown");
  });

  acceptance(SPEC, "skills: a skill folder uploaded from the browser joins the catalogue", async () => {
    const dir = join(files, "skills-upload", "changelog");
    write(join(dir, "SKILL.md"), "---\nname: changelog\ndescription: Keep CHANGELOG.md in step with merged work.\n---\n# Changelog\n\nOne line per change.\n");
    write(join(dir, "templates", "entry.md"), "- {change}\n");
    await nav("Skills").click();
    await choose("Choose folder", dir);
    await page.getByRole("status").filter({ hasText: "Imported 1: changelog" }).waitFor();
    await page.getByRole("table", { name: "Skills" }).getByRole("row").filter({ hasText: "Keep CHANGELOG.md in step" }).waitFor();
    await page.getByLabel("SKILL.md of changelog").getByText("One line per change.").waitFor();

    // A lone SKILL.md dropped on the Add skills section (on the path form, beside the box) imports too.
    const lone = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["---\nname: dropped-beside\ndescription: Dropped on the section, not the box.\n---\n# Dropped\n"], "SKILL.md", { type: "text/markdown" }));
      return dt;
    });
    const pathForm = page.getByRole("form", { name: "Import skills" });
    await pathForm.dispatchEvent("dragover", { dataTransfer: lone });
    expect(await page.getByRole("region", { name: "Add skills" }).getAttribute("data-drop-over")).toBe("");
    await pathForm.dispatchEvent("drop", { dataTransfer: lone });
    await page.getByRole("status").filter({ hasText: "Imported 1: dropped-beside" }).waitFor();
    await page.getByRole("table", { name: "Skills" }).getByRole("row").filter({ hasText: "Dropped on the section, not the box." }).waitFor();
  });
});

describe("writing a skill in the page", () => {
  acceptance(SPEC, "skills: write a new skill in the page; a bad or taken name is shown on the field", async () => {
    await nav("Skills").click();
    await page.getByRole("button", { name: "New skill" }).click();
    const form = page.getByRole("form", { name: "New skill" });
    const name = form.getByRole("textbox", { name: "Name" });
    await name.fill("no spaces please");
    await form.getByRole("textbox", { name: "Description" }).fill("Triage: label and route new issues");
    await form.getByRole("button", { name: "Create skill" }).click();
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    await form.getByText("Use letters, digits, '.', '_' and '-' (up to 64), starting with a letter or digit.").waitFor();
    await shot(page, "vu-03-skill-editor-error");
    await name.fill("triage");
    const body = form.getByRole("textbox", { name: "SKILL.md body" });
    await body.fill("# Triage\n\n1. Read the **whole** issue.\n2. Label it.\n");
    await form.getByRole("button", { name: "Preview" }).click();
    await form.getByLabel("Preview of SKILL.md body").getByRole("heading", { name: "Triage" }).waitFor();
    await form.getByRole("button", { name: "Create skill" }).click();
    const viewer = page.getByLabel("SKILL.md of triage");
    await viewer.getByRole("heading", { name: "Triage" }).waitFor();
    expect(await viewer.locator("strong").textContent()).toBe("whole");
    await page.getByRole("button", { name: "Source", exact: true }).click();
    await page.getByLabel("SKILL.md of triage").getByText("Read the **whole** issue.", { exact: false }).waitFor();
    const { body: skill } = await d.api.get("/skills/triage");
    expect(skill).toMatchObject({ name: "triage", description: "Triage: label and route new issues", problem: null });

    // The same name again: refused on the field, nothing else lost.
    await page.getByRole("button", { name: "New skill" }).click();
    const again = page.getByRole("form", { name: "New skill" });
    await again.getByRole("textbox", { name: "Name" }).fill("triage");
    await again.getByRole("textbox", { name: "Description" }).fill("Another");
    await again.getByRole("button", { name: "Create skill" }).click();
    await again.getByText("A skill with this name already exists.").waitFor();
    expect(await again.getByRole("textbox", { name: "Description" }).inputValue()).toBe("Another");
  });
});

describe("credentials are picked, not typed", () => {
  acceptance(SPEC, "settings: a connection's credential is picked from the stored ones or created inline", async () => {
    await d.api.put("/credentials/existing-key", { secret: "sk-existing-never-shown" });
    await nav("LLM Connections").click();
    await page.getByRole("button", { name: "Add connection" }).first().click();
    const form = page.getByRole("form", { name: "Add LLM connection" });
    await form.getByRole("textbox", { name: "Name" }).fill("Picked");
    await form.getByRole("combobox", { name: "Provider" }).selectOption("anthropic");
    const picker = form.getByRole("combobox", { name: "Credential" });
    expect(await picker.locator("option").allTextContents()).toEqual(["Choose a credential…", "existing-key", "New credential…"]);
    await picker.selectOption("New credential…");
    const inline = form.getByRole("group", { name: "New credential" });
    await inline.getByRole("textbox", { name: "New reference" }).fill("fresh-key");
    await inline.getByLabel("Secret").fill("sk-fresh-never-shown");
    await shot(page, "vu-04-credential-inline");
    await inline.getByRole("button", { name: "Save credential" }).click();
    await inline.waitFor({ state: "detached" });
    expect(await picker.inputValue()).toBe("fresh-key");
    await form.getByRole("combobox", { name: "Model" }).fill("claude-test-1");
    await form.getByRole("button", { name: "Add connection" }).click();
    await page.getByRole("table", { name: "LLM connections" }).getByRole("row").filter({ hasText: "Picked" }).getByText("fresh-key").waitFor();
    const refs = (await d.api.get("/credentials")).body.credentials.map((c: { ref: string }) => c.ref);
    expect(refs).toEqual(expect.arrayContaining(["existing-key", "fresh-key"]));
    expect(await page.content()).not.toContain("sk-fresh-never-shown");

    // An MCP server's environment takes a credential the same way.
    await nav("MCP servers").click();
    await page.getByRole("button", { name: "Add server" }).first().click();
    const add = page.getByRole("group", { name: "Add a credential as variable" });
    await add.getByRole("textbox", { name: "Variable" }).fill("API_KEY");
    await add.getByRole("combobox", { name: "From credential" }).selectOption("existing-key");
    await add.getByRole("button", { name: "Add" }).click();
    expect(await page.getByRole("textbox", { name: "Environment" }).inputValue()).toBe("API_KEY=credential:existing-key");
  });
});

describe("retention never surprises", () => {
  acceptance(SPEC, "an archived conversation says when retention deletes it; Keep conversations forever removes the date", async () => {
    const { body: conv } = await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Old plans" });
    expect((await d.api.post(`/chat/conversations/${conv.id}/archive`)).status).toBe(200);
    await nav("Chat").click();
    const history = page.getByRole("navigation", { name: "Conversations" });
    await page.getByRole("radio", { name: "Archived" }).click();
    await history.getByRole("link", { name: /Old plans.*deleted in 30 days/ }).waitFor();
    await shot(page, "vu-05-archived-deletion-date");

    await nav("Data").click();
    const now = page.getByRole("status", { name: "Retention now" });
    await now.getByText("Conversations idle for 7 days move to the archive; archived ones are deleted 30 days later.").waitFor();
    await shot(page, "vu-06-data-retention");
    await page.getByRole("button", { name: "Keep conversations forever" }).click();
    await now.getByText("archived ones are kept forever.", { exact: false }).waitFor();
    expect((await d.api.get("/settings/retention")).body).toEqual({ archive_after_days: 7, delete_after_days: null });
    expect(await page.getByRole("checkbox", { name: /Keep forever \(delete archived/ }).isChecked()).toBe(true);

    await nav("Chat").click();
    await page.getByRole("radio", { name: "Archived" }).click();
    const row = history.getByRole("link", { name: /Old plans/ });
    await row.waitFor();
    expect(await row.textContent()).not.toContain("deleted in");
    await d.api.put("/settings/retention", { delete_after_days: 30 });
  });
});

describe("screenshots of the changed pages", () => {
  // 1440×900 and 390×844, light and dark: written to e2e/screenshots/ to be looked at (git-ignored).
  test("Knowledge, Skills, LLM connections, Data and the archived history at both sizes and in both themes", async () => {
    const kb = (await d.api.post("/knowledge", { name: "shots" })).body;
    const doc = Buffer.from("# Runbook\n\nRestart the **worker** first, then:\n\n1. drain the queue\n2. deploy\n").toString("base64");
    const job = (await d.api.post(`/knowledge/${kb.id}/uploads`, { label: "runbook.md", files: [{ path: "runbook.md", content_base64: doc }] })).body;
    let status = job.status;
    while (status === "running") status = (await d.api.get(`/knowledge/imports/${job.id}`)).body.status;
    const { body: conv } = await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Archived for the shots" });
    await d.api.post(`/chat/conversations/${conv.id}/archive`);
    for (const [size, width, height] of [["desktop", 1440, 900], ["phone", 390, 844]] as const) {
      for (const colorScheme of ["light", "dark"] as const) {
        const { context: ctx, page: p } = await newPage(browser, { width, height, colorScheme });
        try {
          const name = (s: string) => `vu-${size}-${colorScheme}-${s}`;
          await p.goto(d.openUrl);
          // The token exchange ends on the Chat page: navigating away before it lands races it.
          await p.getByRole("combobox", { name: "Agent" }).waitFor();
          await p.goto(`${d.daemon.url}/vault/knowledge?kb=${kb.id}`);
          await p.getByRole("button", { name: "View runbook.md" }).click();
          await p.getByLabel("Content of runbook.md").getByRole("heading", { name: "Runbook" }).waitFor();
          await shot(p, name("knowledge"));
          await p.getByLabel("Content of runbook.md").scrollIntoViewIfNeeded();
          await shot(p, name("knowledge-viewer"));
          await p.goto(`${d.daemon.url}/vault/skills`);
          await p.getByRole("button", { name: "New skill" }).click();
          await p.getByRole("form", { name: "New skill" }).waitFor();
          await shot(p, name("skills-new"));
          await p.goto(`${d.daemon.url}/settings/connections`);
          await p.getByRole("button", { name: "Add connection" }).first().click();
          await p.getByRole("form", { name: "Add LLM connection" }).getByRole("combobox", { name: "Credential" }).selectOption("New credential…");
          await p.getByRole("group", { name: "New credential" }).waitFor();
          await shot(p, name("connections-picker"));
          await p.goto(`${d.daemon.url}/settings/data`);
          await p.getByRole("status", { name: "Retention now" }).waitFor();
          await shot(p, name("data"));
          await p.goto(`${d.daemon.url}/chat`);
          // At phone size the history may sit in a drawer (the phone layout): open it when it is not shown.
          const archivedTab = p.getByRole("radio", { name: "Archived" });
          if (!(await archivedTab.isVisible())) await p.getByRole("button", { name: /history|conversations/i }).first().click();
          await archivedTab.click();
          const archivedRow = p.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Archived for the shots.*deleted in \d+ days/ });
          await archivedRow.waitFor();
          // The deletion notice sits on its own line under the title and never cuts it (issue 15 review).
          const title = archivedRow.getByText("Archived for the shots", { exact: true });
          const notice = archivedRow.getByText(/deleted in \d+ days/);
          const [titleBox, noticeBox] = [await title.boundingBox(), await notice.boundingBox()];
          expect(noticeBox!.y, `${size} ${colorScheme}: notice under the title`).toBeGreaterThanOrEqual(titleBox!.y + titleBox!.height - 1);
          expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth), `${size} ${colorScheme}: title not cut`).toBe(true);
          await shot(p, name("history-archived"));
        } finally {
          await ctx.close();
        }
      }
    }
  });
});

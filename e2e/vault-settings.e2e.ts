import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SkillListOut } from "@coffer/protocol";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

const HEALTHY_MCP = fileURLToPath(new URL("../packages/daemon/test/fixtures/mcp/healthy-server.mjs", import.meta.url));

let d: E2eDaemon;
let browser: Browser;
let page: Page;
let files: string;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  files = join(d.home, "fixtures");
});
// A fresh browser context per test, opened on the start page: each test navigates to what it
// needs and owns the vault items it creates (none reads another test's leftovers).
beforeEach(async () => {
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `vs-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await page.context().close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const nav = (name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
const get = async <T>(path: string): Promise<T> =>
  (await (await fetch(`${d.daemon.url}/api/v1${path}`, { headers: { authorization: `Bearer ${d.daemon.token}` } })).json()) as T;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

describe("Vault and Settings pages, one real daemon", () => {
  test("the sidebar keeps Chat on top, then the Vault and Settings groups", async () => {
    const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
    expect(links.map((l) => l.trim())).toEqual([
      "Chat",
      "Skills",
      "Memory",
      "Knowledge",
      "MCP servers",
      "Tool calls log",
      "LLM Connections",
      "Credentials",
      "Channels",
      "Schedules",
      "Data",
      "Alerts",
    ]);
  });

  test("skills: import a folder from disk, read its SKILL.md, a malformed one shows its problem", async () => {
    write(join(files, "skills", "release-notes", "SKILL.md"), "---\nname: release-notes\ndescription: Write release notes from merged PRs.\n---\n# Release notes\n\nGroup changes by area.\n");
    // Malformed, straight in the vault: listed with its problem, never hidden.
    write(join(d.home, "skills", "broken", "SKILL.md"), "---\ndescription: no name here\n---\nbody\n");
    await nav("Skills").click();
    await page.getByRole("heading", { name: "Skills", level: 1 }).waitFor();
    await page.getByRole("textbox", { name: "Folder path" }).fill(join(files, "skills", "release-notes"));
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Imported 1: release-notes" }).waitFor();
    const table = page.getByRole("table", { name: "Skills" });
    await table.getByRole("row").filter({ hasText: "Write release notes from merged PRs." }).waitFor();
    await page.getByLabel("SKILL.md of release-notes").getByText("Group changes by area.").waitFor();
    const { skills } = await get<SkillListOut>("/skills");
    const problem = skills.find((s) => s.folder === "broken")!.problem!;
    expect(problem).toBeTruthy();
    await table.getByRole("row").filter({ hasText: "broken" }).getByText(problem).waitFor();
    await page.getByText("1 skill is left out of the agents' catalogue until fixed.").waitFor();
    await shot(page, "vs-01-skills");
  });

  test("memory: add a fact, find it by search, delete it", async () => {
    await nav("Memory").click();
    await page.getByText("Nothing remembered yet.").waitFor();
    await page.getByRole("button", { name: "New fact" }).first().click();
    await page.getByRole("textbox", { name: "Fact" }).fill("The staging database lives on port 6543.");
    await page.getByRole("button", { name: "Remember" }).click();
    const table = page.getByRole("table", { name: "Memory facts" });
    await table.getByRole("row").filter({ hasText: "port 6543" }).waitFor();
    await shot(page, "vs-02-memory");
    await page.getByRole("searchbox", { name: "Search memory" }).fill("staging database");
    const hits = page.getByRole("list", { name: "Memory matches" });
    await hits.getByRole("listitem").filter({ hasText: "port 6543" }).waitFor();
    await shot(page, "vs-03-memory-search");
    await hits.getByRole("button", { name: /^Delete fact/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Forget" }).click();
    await page.getByText("No fact matches “staging database”.").waitFor();
    await page.getByRole("button", { name: "Clear search" }).click();
    await page.getByText("Nothing remembered yet.").waitFor();
  });

  test("knowledge: create a base, import a folder with progress and skipped files, search it", async () => {
    const docs = join(files, "notes");
    for (let i = 0; i < 40; i++) write(join(docs, `note-${String(i).padStart(2, "0")}.md`), `# Note ${i}\n\nRoutine entry ${i} about ordinary things.\n`);
    write(join(docs, "deploy.md"), "# Deploying\n\nThe deploy pipeline runs canary checks before the blue-green switch.\n");
    writeFileSync(join(docs, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    await nav("Knowledge").click();
    await page.getByRole("button", { name: "New knowledge base" }).first().click();
    await page.getByRole("textbox", { name: "Name" }).fill("runbooks");
    await page.getByRole("textbox", { name: "Description" }).fill("How we ship");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "runbooks · documents" }).waitFor();
    await page.getByRole("textbox", { name: "Path on the daemon's machine" }).fill(docs);
    await page.getByRole("button", { name: "Import", exact: true }).click();
    const bar = page.getByRole("progressbar", { name: `Importing ${docs}` });
    await bar.waitFor();
    await page.getByText("Import finished").waitFor();
    expect(await bar.getAttribute("aria-valuenow")).toBe(await bar.getAttribute("aria-valuemax"));
    await page.getByRole("list", { name: "Skipped files" }).getByText("logo.png").waitFor();
    await page.getByRole("table", { name: "Documents in runbooks" }).getByRole("row").filter({ hasText: "deploy.md" }).waitFor();
    await page.getByRole("table", { name: "Knowledge bases" }).getByRole("row").filter({ hasText: "runbooks" }).getByRole("cell", { name: "41", exact: true }).first().waitFor();
    await shot(page, "vs-04-knowledge-import");
    await page.getByRole("searchbox", { name: "Search knowledge" }).fill("canary");
    const hit = page.getByRole("list", { name: "Knowledge matches" }).getByRole("listitem").first();
    await hit.locator("mark", { hasText: "canary" }).waitFor();
    expect(await hit.textContent()).toContain("deploy.md");
    await page.getByRole("button", { name: "View deploy.md" }).click();
    const content = page.getByLabel("Content of deploy.md");
    await content.getByText("blue-green switch", { exact: false }).waitFor();
    await page.getByRole("searchbox", { name: "Search knowledge" }).scrollIntoViewIfNeeded();
    await shot(page, "vs-05-knowledge-search");
  });

  test("MCP servers: add a stdio server, see it connected with its tools; the log page", async () => {
    await nav("MCP servers").click();
    await page.getByText("No upstream servers yet.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Add server" }).first().click();
    await page.getByRole("textbox", { name: "Name" }).fill("fixture");
    await page.getByRole("textbox", { name: "Command" }).fill(process.execPath);
    await page.getByRole("textbox", { name: "Arguments" }).fill(HEALTHY_MCP);
    await page.getByRole("textbox", { name: "Environment" }).fill("GREETING=hi");
    await page.getByRole("button", { name: "Add server" }).last().click();
    const card = page.getByRole("listitem", { name: "fixture, Connected" });
    await card.waitFor();
    await card.getByRole("button", { name: /^Tools · \d+$/ }).click();
    await page.getByRole("list", { name: "Tools of fixture" }).getByText("fixture__echo").waitFor();
    await shot(page, "vs-06-mcp-servers");
    await card.getByRole("button", { name: "Disable fixture" }).click();
    await page.getByRole("listitem", { name: "fixture, Disabled" }).waitFor();
    await page.getByRole("listitem", { name: "fixture, Disabled" }).getByRole("button", { name: "Enable fixture" }).click();
    await page.getByRole("listitem", { name: "fixture, Connected" }).waitFor();
    await nav("Tool calls log").click();
    await page.getByRole("table", { name: "Tool calls" }).waitFor();
    await page.getByText("No tool calls yet.", { exact: false }).waitFor();
  });

  test("credentials: the secret is write-only and the ref is validated inline", async () => {
    await nav("Credentials").click();
    const ref = page.getByRole("textbox", { name: "Reference" });
    const secret = page.getByLabel("Secret", { exact: true });
    expect(await secret.getAttribute("type")).toBe("password");
    await ref.fill("bad ref!");
    await page.getByText("Use letters, digits, '.', '_' or '-'", { exact: false }).waitFor();
    expect(await ref.getAttribute("aria-invalid")).toBe("true");
    await ref.fill("anthropic-key");
    await secret.fill("sk-e2e-never-shown");
    await page.getByRole("button", { name: "Save credential" }).click();
    await page.getByRole("table", { name: "Credentials" }).getByRole("row").filter({ hasText: "anthropic-key" }).waitFor();
    expect(await secret.inputValue()).toBe("");
    await page.getByRole("button", { name: "Replace secret of anthropic-key" }).click();
    expect(await secret.inputValue()).toBe("");
    expect(await page.content()).not.toContain("sk-e2e-never-shown");
    await shot(page, "vs-07-credentials");
  });

  test("LLM connections: add one, Test reports a refused connection in words, make it the internal default", async () => {
    // A loopback port nothing listens on. (Not :1 — fetch refuses that port itself as a "bad port".)
    const closed = await closedPort();
    await nav("LLM Connections").click();
    await page.getByRole("button", { name: "Add connection" }).first().click();
    const form = page.getByRole("form", { name: "Add LLM connection" });
    await form.getByRole("textbox", { name: "Name" }).fill("Local Claude");
    await form.getByRole("combobox", { name: "Provider" }).selectOption("anthropic");
    await form.getByRole("textbox", { name: "Base URL" }).fill(`http://127.0.0.1:${closed}`);
    await form.getByRole("combobox", { name: "Credential" }).selectOption("anthropic-key");
    const model = form.getByRole("combobox", { name: "Model" });
    await model.focus();
    // Nothing listens there, so the list is empty with the reason, and a typed id is accepted.
    await form.getByText("Type a model id.", { exact: false }).waitFor();
    await model.fill("claude-test-1");
    await form.getByRole("button", { name: "Test" }).click();
    const result = form.getByRole("status", { name: "Test result" });
    await result.getByText("Test failed", { exact: false }).waitFor();
    expect((await result.textContent())?.toLowerCase()).toContain("connection refused");
    await shot(page, "vs-08-connection-test");
    await form.getByRole("button", { name: "Add connection" }).click();
    const row = page.getByRole("table", { name: "LLM connections" }).getByRole("row").filter({ hasText: "Local Claude" });
    await row.getByText("Set", { exact: true }).waitFor();
    await row.getByRole("button", { name: "Make Local Claude the internal default" }).click();
    await row.getByText("Internal default").waitFor();
    // A duplicate name is refused with the envelope's message, inline.
    await page.getByRole("button", { name: "Add connection" }).first().click();
    const again = page.getByRole("form", { name: "Add LLM connection" });
    await again.getByRole("textbox", { name: "Name" }).fill("Local Claude");
    await again.getByRole("combobox", { name: "Provider" }).selectOption("ollama");
    await again.getByRole("combobox", { name: "Model" }).fill("llama3");
    await again.getByRole("button", { name: "Add connection" }).click();
    await again.getByRole("alert").waitFor();
    await shot(page, "vs-09-connections");
    await again.getByRole("button", { name: "Cancel" }).click();
  });

  test("data: change the retention windows, one of them to keep forever", async () => {
    await nav("Data").click();
    const archive = page.getByRole("spinbutton", { name: "Archive conversations after" });
    await archive.waitFor();
    expect(await archive.inputValue()).toBe("7");
    await archive.fill("14");
    await page.getByRole("checkbox", { name: /Keep forever \(delete archived/ }).check();
    expect(await page.getByRole("spinbutton", { name: "Delete archived conversations after" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await get("/settings/retention")).toEqual({ archive_after_days: 14, delete_after_days: null });
    await shot(page, "vs-10-data");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.getByRole("radio", { name: "Dark theme" }).click();
    await nav("LLM Connections").click();
    await page.getByRole("table", { name: "LLM connections" }).getByRole("row").filter({ hasText: "Local Claude" }).waitFor();
    await shot(page, "vs-11-connections-dark");
    await nav("MCP servers").click();
    await page.getByRole("listitem", { name: "fixture, Connected" }).getByRole("button", { name: /^Tools/ }).click();
    await shot(page, "vs-12-mcp-dark");
    await page.getByRole("radio", { name: "System theme" }).click();
  });
});

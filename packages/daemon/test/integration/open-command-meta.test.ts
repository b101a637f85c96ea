/**
 * Issue 22, D: the page names the sign-in command as the owner types it where the daemon was
 * started. The daemon writes it into index.html (a <meta>), for every client route and for
 * /index.html itself, HTML-escaped; its auth errors name the same command.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OPEN_COMMAND_META } from "@coffer/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon | null = null;
let web: string | null = null;
afterEach(async () => {
  await t?.close();
  if (web) rmSync(web, { recursive: true, force: true });
  t = web = null;
});

async function daemonWith(cliCommand: string): Promise<TestDaemon> {
  web = mkdtempSync(join(tmpdir(), "coffer-web-"));
  writeFileSync(join(web, "index.html"), '<!doctype html><html><head><title>Coffer</title></head><body><div id="root"></div></body></html>');
  t = await startTestDaemon({ webRoot: web, cliCommand });
  return t;
}

describe("the sign-in command in the page's HTML", () => {
  test("a clone's command, on every route and on /index.html", async () => {
    const d = await daemonWith("npm run coffer --");
    for (const path of ["/", "/chat/x", "/index.html"]) {
      const html = await (await fetch(`${d.daemon.url}${path}`)).text();
      expect(html).toContain(`<meta name="${OPEN_COMMAND_META}" content="npm run coffer -- open"></head>`);
    }
    const used = await fetch(`${d.daemon.url}/api/v1/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login_code: "nope" }) });
    expect(((await used.json()) as { error: { message: string } }).error.message).toContain("run `npm run coffer -- open` again");
  });

  test("an owner's odd COFFER_CLI_COMMAND is escaped, never markup", async () => {
    const d = await daemonWith(`"><script>alert(1)</script>`);
    const html = await (await fetch(`${d.daemon.url}/`)).text();
    expect(html).not.toContain("<script>alert");
    expect(html).toContain(`content="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62; open"`);
  });
});

/**
 * Issue 21, V2: `coffer open` must not put the one-time login code on any command line
 * (/proc/<pid>/cmdline is world-readable). The browser gets a private 0600 file that forwards
 * to the code; whoever scans every process's argv meanwhile finds nothing.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, constants, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, closeSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAtHome } from "./support/run-cli.js";
import { until } from "./support/until.js";

const SPEC = "021-hardening";
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Every process's argv, as any local user can read it. */
function allCommandLines(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" "));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * A stand-in browser: an `xdg-open` on PATH that records its argv, the mode and contents of
 * the file it was handed, then blocks on a FIFO so the test can scan /proc while it runs.
 * (A real browser cannot run here headless-and-recorded; this is the one thing mocked.)
 */
function fakeBrowser(): { bin: string; log: string; release(): void } {
  const dir = mkdtempSync(join(tmpdir(), "coffer-browser-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const bin = join(dir, "bin");
  const log = join(dir, "log");
  execFileSync("mkdir", ["-p", bin]);
  execFileSync("mkfifo", [join(dir, "go")]);
  writeFileSync(
    join(bin, "xdg-open"),
    `#!/bin/sh
printf '%s\\n' "$@" > "${log}.argv"
stat -c '%a' "$1" > "${log}.mode" 2>/dev/null
cat "$1" > "${log}.html" 2>/dev/null
echo ready > "${log}.ready"
read _ < "${dir}/go"
`,
  );
  chmodSync(join(bin, "xdg-open"), 0o755);
  const release = () => {
    try {
      const fd = openSync(join(dir, "go"), constants.O_WRONLY | constants.O_NONBLOCK);
      writeSync(fd, "\n");
      closeSync(fd);
    } catch {
      // no reader: the stub never ran
    }
  };
  cleanups.push(release);
  return { bin, log, release };
}

describe("coffer open", { timeout: 60_000 }, () => {
  acceptance(SPEC, "coffer open hands the browser a private 0600 file that forwards to the one-time code: no secret on any command line", async () => {
    const t: TestDaemon = await startTestDaemon();
    cleanups.push(() => t.close());
    const browser = fakeBrowser();
    const open = await cofferAtHome(t.home, ["open"], { PATH: `${browser.bin}:${process.env.PATH}`, DISPLAY: ":99" });
    expect(open.code).toBe(0);
    await until(() => existsSync(`${browser.log}.ready`), "the browser to start");

    // The poller's view while the browser runs: no argv anywhere carries a login code.
    const lines = allCommandLines();
    expect(lines.filter((l) => l.includes("login="))).toEqual([]);
    const argv = readFileSync(`${browser.log}.argv`, "utf8").trim().split("\n");
    expect(argv).toHaveLength(1);
    const file = argv[0]!;
    expect(readFileSync(`${browser.log}.mode`, "utf8").trim()).toBe("600");
    const html = readFileSync(`${browser.log}.html`, "utf8");
    const target = /http:\/\/127\.0\.0\.1:\d+\/#login=([A-Za-z0-9_-]+)/.exec(html);
    expect(target?.[0].startsWith(t.daemon.url)).toBe(true);
    const code = target![1]!;
    expect(lines.filter((l) => l.includes(code))).toEqual([]);
    expect(open.stdout).not.toContain(code);
    expect(html).not.toContain(t.daemon.token);

    // Opening it signs in, once; the used file is removed.
    const session = await fetch(`${t.daemon.url}/api/v1/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login_code: code }) });
    expect(session.status).toBe(201);
    await until(() => !existsSync(file), "the used hand-off file to be removed");
    browser.release();
  });

  acceptance("022-screens-true", "from a fresh clone the first start opens the page signed in through the private hand-off, and every printed hint names a command that works where it is printed", async () => {
    // `coffer open` with no browser to start: it says so and prints the hand-off file's link
    // (no secret in it: the code is inside the 0600 file), and the fallback command.
    const t: TestDaemon = await startTestDaemon();
    cleanups.push(() => t.close());
    const empty = mkdtempSync(join(tmpdir(), "coffer-nobrowser-"));
    cleanups.push(() => rmSync(empty, { recursive: true, force: true }));
    const open = await cofferAtHome(t.home, ["open"], { PATH: empty, COFFER_CLI_COMMAND: "", DISPLAY: ":99" });
    expect(open.code).toBe(0);
    expect(open.stdout).toMatch(/^Could not start a browser \(xdg-open was not found\)\. Within 60 s, open this link in your browser to sign in:\n {2}file:\/\/\//);
    const link = /(file:\/\/\S+\.html)/.exec(open.stdout)![1]!;
    expect(existsSync(fileURLToPath(link))).toBe(true);
    expect(open.stdout).toContain("or run `coffer open --print` for a one-time address to paste.");
    expect(open.stdout).not.toContain("login=");
    expect(open.stdout).not.toContain(t.daemon.token);
    // Run from a clone (`npm run coffer -- open`), the fallback it names is the clone's.
    const fromClone = await cofferAtHome(t.home, ["open"], { PATH: empty, COFFER_CLI_COMMAND: "npm run coffer --", DISPLAY: ":99" });
    expect(fromClone.stdout).toContain("or run `npm run coffer -- open --print`");
    // No display (over SSH): xdg-open would start and fail later, so none is tried; the link is printed.
    const browser = fakeBrowser();
    const headless = await cofferAtHome(t.home, ["open"], { PATH: `${browser.bin}:${process.env.PATH}`, DISPLAY: "", WAYLAND_DISPLAY: "" });
    expect(headless.stdout).toMatch(/^No display here, so no browser was started\. Within 60 s, open this link in your browser to sign in:\n {2}file:\/\/\//);
    expect(existsSync(`${browser.log}.argv`)).toBe(false);
  });
});

/**
 * Issue 22, D and the banner: `npm start` from a clone, run as the owner runs it (the repo's
 * scripts/start.mjs, a real daemon on 127.0.0.1, a temp data dir). The first start opens the page
 * signed in through the private hand-off `coffer open` uses; every hint it prints names a
 * command that works from the clone; the terminal shows the banner, not JSON log lines.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { OPEN_COMMAND_META } from "@coffer/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { until } from "./support/until.js";

const SPEC = "022-screens-true";
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A stand-in browser: an `xdg-open` on PATH that records its argv and the file it was handed.
 * (A real browser cannot be started and recorded here; this is the one thing mocked.)
 */
function fakeBrowser(): { bin: string; log: string } {
  const dir = tempDir("coffer-browser-");
  const bin = join(dir, "bin");
  const log = join(dir, "log");
  execFileSync("mkdir", ["-p", bin]);
  writeFileSync(
    join(bin, "xdg-open"),
    `#!/bin/sh
printf '%s\\n' "$@" > "${log}.argv"
stat -c '%a' "$1" > "${log}.mode" 2>/dev/null
cat "$1" > "${log}.html" 2>/dev/null
echo ready > "${log}.ready"
`,
  );
  chmodSync(join(bin, "xdg-open"), 0o755);
  return { bin, log };
}

interface Started {
  readonly child: ChildProcess;
  readonly home: string;
  /** stdout and stderr in arrival order: what a terminal shows. */
  screen(): string;
  stop(): Promise<string>;
}

/** `npm start` as the repo runs it (scripts/start.mjs), with `env` over a display-less environment. */
async function npmStart(args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const home = tempDir("coffer-first-");
  const { DISPLAY: _d, WAYLAND_DISPLAY: _w, COFFER_NO_OPEN: _n, COFFER_CLI_COMMAND: _c, COFFER_LOG_FILE: _l, ...base } = process.env;
  const child = spawn(process.execPath, [join(ROOT, "scripts/start.mjs"), "--port", "0", ...args], {
    cwd: ROOT,
    env: { ...base, COFFER_HOME: home, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let screen = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (screen += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (screen += c));
  const exited = new Promise<void>((r) => child.once("close", () => r()));
  cleanups.push(() => {
    child.kill("SIGTERM");
    return exited;
  });
  await until(() => screen.includes("Data dir:") || child.exitCode !== null, "the banner");
  return {
    child,
    home,
    screen: () => screen,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      return screen;
    },
  };
}

/** A command run from the clone's root, as the banner tells the owner to. */
function fromClone(command: string, args: string[], env: NodeJS.ProcessEnv): { code: number; stdout: string } {
  try {
    return { code: 0, stdout: execFileSync(command, args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
  } catch (err) {
    const e = err as { status: number; stdout: string };
    return { code: e.status, stdout: e.stdout };
  }
}

const bannerUrl = (screen: string) => /Coffer is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(screen)![1]!;

describe("npm start from a clone", { timeout: 120_000 }, () => {
  acceptance(SPEC, "from a fresh clone the first start opens the page signed in through the private hand-off, and every printed hint names a command that works where it is printed", async () => {
    const browser = fakeBrowser();
    const started = await npmStart([], { DISPLAY: ":99", PATH: `${browser.bin}:${process.env.PATH}` });
    await until(() => existsSync(`${browser.log}.ready`), "the browser to be started");
    const screen = started.screen();
    const url = bannerUrl(screen);
    const token = readFileSync(join(started.home, "token"), "utf8").trim();

    // The browser got a private file's path, nothing else: no code, no token on its command line.
    const argv = readFileSync(`${browser.log}.argv`, "utf8").trim().split("\n");
    expect(argv).toHaveLength(1);
    expect(argv[0]).toMatch(new RegExp(`^${started.home}/signin/[^/]+\\.html$`));
    expect(readFileSync(`${browser.log}.mode`, "utf8").trim()).toBe("600");
    const code = /#login=([A-Za-z0-9_-]+)/.exec(readFileSync(`${browser.log}.html`, "utf8"))![1]!;
    for (const secret of [code, token]) {
      expect(argv.join(" ")).not.toContain(secret);
      expect(screen).not.toContain(secret);
    }
    // Opening that file signs the page in.
    const session = await fetch(`${url}/api/v1/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login_code: code }) });
    expect(session.status).toBe(201);

    // The banner names the command that works here, and it does: from the clone's root.
    expect(screen).toContain("Opened it in your browser, signed in. To open it again: `npm run coffer -- open`");
    const printed = fromClone("npm", ["run", "--silent", "coffer", "--", "open", "--print"], { COFFER_HOME: started.home, DISPLAY: "" });
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toMatch(new RegExp(`^${url}/#login=[A-Za-z0-9_-]+$`));
    const help = fromClone("npm", ["run", "--silent", "coffer", "--", "--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run coffer -- \[options\] \[command\]/);
    expect(help.stdout).toMatch(/\n\s+open \[options\]\s+verify the running daemon/);

    // The signed-out page names the same command (its HTML carries it).
    const html = await (await fetch(`${url}/`)).text();
    if (html.includes("<div id=")) expect(html).toContain(`<meta name="${OPEN_COMMAND_META}" content="npm run coffer -- open">`);
    await started.stop();
  });

  test("no display: no browser is tried and the banner says how to sign in instead; --no-open and COFFER_NO_OPEN=1 skip it", async () => {
    const browser = fakeBrowser();
    const PATH = `${browser.bin}:${process.env.PATH}`;
    const headless = await npmStart([], { PATH });
    expect(headless.screen()).toContain("No display here, so no browser was started: run `npm run coffer -- open --print` for a one-time sign-in address (valid 60 s), or `npm run coffer -- open` once there is a display.");
    await headless.stop();
    const skipped = await npmStart(["--no-open"], { PATH, DISPLAY: ":99" });
    expect(skipped.screen()).toMatch(/Coffer is running at http:\/\/127\.0\.0\.1:\d+\. Open it with `npm run coffer -- open`/);
    await skipped.stop();
    const byEnv = await npmStart([], { PATH, DISPLAY: ":99", COFFER_NO_OPEN: "1" });
    expect(byEnv.screen()).toContain("Open it with `npm run coffer -- open`");
    await byEnv.stop();
    expect(existsSync(`${browser.log}.argv`)).toBe(false);
  });

  acceptance(SPEC, "the start banner carries no JSON log line", async () => {
    const started = await npmStart(["--no-open"], {});
    const onScreen = await started.stop();
    expect(onScreen).toMatch(/Coffer is running at http:\/\/127\.0\.0\.1:\d+/);
    expect(onScreen).toContain(`Log: ${join(started.home, "daemon.log")}`);
    // Not one JSON line between the banner's lines (stdout and stderr, as a terminal shows them).
    for (const line of onScreen.split("\n")) expect(line.trimStart().startsWith("{"), line).toBe(false);
    // The log lines went to the private log file instead.
    const log = join(started.home, "daemon.log");
    expect((statSync(log).mode & 0o777).toString(8)).toBe("600");
    const lines = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["daemon listening", "daemon stopped"]));
  });
});

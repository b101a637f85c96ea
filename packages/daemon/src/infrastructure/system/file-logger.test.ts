import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileLogger, LOG_FILE_MAX_BYTES } from "./file-logger.js";

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), "coffer-log-"));
  dirs.push(d);
  return d;
}

describe("fileLogger", () => {
  it("writes JSON lines to a 0600 file and says warnings on stderr in one plain line", () => {
    const path = join(dir(), "daemon.log");
    const echoed: string[] = [];
    const log = fileLogger(path, "info", (l) => echoed.push(l));
    log.debug("hidden");
    log.info("daemon listening", { url: "http://127.0.0.1:1" });
    log.warn("no Unix socket for the CLI", { home: "/h", nested: { a: 1 } });
    const lines = readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ["info", "daemon listening"],
      ["warn", "no Unix socket for the CLI"],
    ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(echoed).toEqual(["coffer: warning: no Unix socket for the CLI (home: /h)\n"]);
  });

  it("tightens a file an older run left readable, and rotates once past the cap", () => {
    const path = join(dir(), "daemon.log");
    writeFileSync(path, "x".repeat(LOG_FILE_MAX_BYTES - 10));
    chmodSync(path, 0o644);
    const log = fileLogger(path, "info", () => undefined);
    log.info("after the cap");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${path}.1`, "utf8")).toBe("x".repeat(LOG_FILE_MAX_BYTES - 10));
    expect(JSON.parse(readFileSync(path, "utf8")).msg).toBe("after the cap");
  });

  it("never writes through a link: it says so once and logs to stderr instead", () => {
    const d = dir();
    const target = join(d, "elsewhere");
    writeFileSync(target, "");
    symlinkSync(target, join(d, "daemon.log"));
    const echoed: string[] = [];
    const log = fileLogger(join(d, "daemon.log"), "info", (l) => echoed.push(l));
    log.info("one");
    log.info("two");
    expect(readFileSync(target, "utf8")).toBe("");
    expect(echoed[0]).toMatch(/^coffer: cannot write the log file .*daemon\.log \(ELOOP\); logging to stderr instead\n$/);
    expect(echoed.slice(1).map((l) => JSON.parse(l).msg)).toEqual(["one", "two"]);
  });
});

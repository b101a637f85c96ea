import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestDaemon } from "../../../daemon/test/support/test-daemon.js";

/** The built CLI (npm test builds before it runs). */
export const CLI = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `coffer` against a test daemon (its URL and token as flags), `stdin` piped in (never a TTY). */
export function cofferAgainst(t: TestDaemon, args: readonly string[], stdin = ""): Promise<CliRun> {
  return run(["--url", t.daemon.url, "--token", t.daemon.token, ...args], { ...process.env, COFFER_HOME: t.home }, stdin);
}

/**
 * Like `cofferAgainst`, for a command that runs on (chat watch, send, questions): `onStdout`
 * hears all the output so far at each chunk, and returning true ends the command with Ctrl-C
 * (SIGINT), as the owner would. Its stdin stays open, as a terminal's does.
 */
export function cofferWatching(t: TestDaemon, args: readonly string[], onStdout?: (all: string) => boolean | void): Promise<CliRun> {
  return run(["--url", t.daemon.url, "--token", t.daemon.token, ...args], { ...process.env, COFFER_HOME: t.home }, null, onStdout);
}

/**
 * Runs the built `coffer` with a data dir where no daemon runs: a command that reaches for the
 * daemon exits 5 (DAEMON_UNREACHABLE), so a usage error proves it was caught before any request.
 */
export function cofferWithoutDaemon(home: string, args: readonly string[]): Promise<CliRun> {
  const { COFFER_URL: _url, COFFER_TOKEN: _token, ...env } = process.env;
  return run(args, { ...env, COFFER_HOME: home }, "");
}

/**
 * Runs the built `coffer` the way the owner does: it finds the daemon through the data dir
 * (daemon.json, token, daemon.sock), no URL or token on its command line; `env` is added.
 */
export function cofferAtHome(home: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const { COFFER_URL: _url, COFFER_TOKEN: _token, ...base } = process.env;
  return run(args, { ...base, COFFER_HOME: home, ...env }, "");
}

/** `stdin` null leaves the child's stdin open; `onStdout` returning true sends it SIGINT. */
function run(args: readonly string[], env: NodeJS.ProcessEnv, stdin: string | null, onStdout?: (all: string) => boolean | void): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      if (onStdout?.(stdout) === true) child.kill("SIGINT");
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (stdin !== null) child.stdin.end(stdin);
  });
}

/**
 * Runs the built `coffer` on a real terminal: util-linux `script` gives it a pseudo-terminal
 * (stdin and stdout are TTYs) and types `keys` into it. The output is the terminal's, so it
 * holds the prompt and the echo of what was typed.
 */
export function cofferOnTerminal(t: TestDaemon, args: readonly string[], keys: string): Promise<CliRun> {
  return onTerminal(["--url", t.daemon.url, "--token", t.daemon.token, ...args], { ...process.env, COFFER_HOME: t.home }, keys);
}

/** The same for a data dir with no daemon to name (`coffer restore` asks before it replaces one). */
export function cofferAtHomeOnTerminal(home: string, args: readonly string[], keys: string): Promise<CliRun> {
  const { COFFER_URL: _url, COFFER_TOKEN: _token, ...env } = process.env;
  return onTerminal(args, { ...env, COFFER_HOME: home }, keys);
}

/**
 * Like `cofferOnTerminal`, but each answer is typed only once its prompt is on the screen: keys
 * typed ahead are echoed by the terminal itself before the CLI can turn echo off, so a test of a
 * hidden prompt must answer the way a person does.
 */
export function cofferOnTerminalAnswering(t: TestDaemon, args: readonly string[], answers: readonly (readonly [prompt: string, keys: string])[]): Promise<CliRun> {
  return onTerminal(["--url", t.daemon.url, "--token", t.daemon.token, ...args], { ...process.env, COFFER_HOME: t.home }, answers);
}

function onTerminal(args: readonly string[], env: NodeJS.ProcessEnv, keys: string | readonly (readonly [string, string])[]): Promise<CliRun> {
  const argv = [process.execPath, CLI, ...args];
  const command = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  return new Promise((resolve) => {
    // `script` itself echoes what it is fed from a pipe (--echo auto); a hidden prompt's test must
    // see only the terminal's own echo, which the CLI turns off.
    const echo = typeof keys === "string" ? [] : ["--echo", "never"];
    const child = spawn("script", [...echo, "-qec", command, "/dev/null"], { env });
    let stdout = "";
    let stderr = "";
    const pending = typeof keys === "string" ? [] : [...keys];
    let seen = 0;
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      const next = pending[0];
      const at = next ? stdout.indexOf(next[0], seen) : -1;
      if (next && at >= 0) {
        seen = at + next[0].length;
        pending.shift();
        if (pending.length) child.stdin.write(next[1]);
        else child.stdin.end(next[1]);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (typeof keys === "string") child.stdin.end(keys);
  });
}

/**
 * Issue 21 (Hardening II), W1: an agent used to start in `<data dir>/workspace` with every
 * `COFFER_*` variable of the daemon in its environment, so one Bash call (`env; ls ..`) could
 * read the token and the key file. Here the REAL `claude` and `codex` CLIs (against the fake
 * model servers) run `env; pwd` as a shell tool call in a conversation that names no folder,
 * and the test reads what the tool really printed.
 */
import { realpath } from "node:fs/promises";
import { relative } from "node:path";
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { AGENTS, startAgentHarness, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";

/** Values planted in the daemon's environment that no agent may see. */
const PLANTED = {
  COFFER_TOKEN: "planted-cli-token-6f1d2c",
  COFFER_URL: "http://127.0.0.1:1/planted",
  COFFER_LOG_LEVEL: "warn",
  COFFER_CLAUDE_IDLE_SECONDS: "301",
} as const;

/** How each fake model server is told to make its agent run a shell command. */
const RUN: Record<AgentKey, (command: string) => string> = {
  claude_code: (command) => `RUN: ${command}`,
  codex: (command) => `USE_TOOL ${command}`,
};

/** The text the shell tool printed, whichever agent's event shape carries it. */
function toolOutput(output: unknown): string {
  if (typeof output === "string") return output;
  if (output && typeof output === "object" && typeof (output as { output?: unknown }).output === "string") return (output as { output: string }).output;
  return JSON.stringify(output);
}

describe.each(AGENTS)("%s's environment", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent, { env: PLANTED });
  }, 30_000);
  afterAll(() => h?.close(), 30_000);

  acceptance(
    "021-hardening",
    "agents start outside the data dir and without Coffer's own variables in their environment",
    async () => {
      // The rig gives codex its home through COFFER_CODEX_HOME: one more Coffer variable to hide.
      expect(Object.keys(h.env).filter((k) => k.startsWith("COFFER_")).length).toBeGreaterThanOrEqual(Object.keys(PLANTED).length);
      const id = await h.conversation(); // no cwd: the default workspace
      const sub = await h.daemon.subscribe(id);
      await h.send(id, RUN[agent]("env; echo cwd=$(pwd -P)"));
      const done = await sub.waitFor(isTerminalEvent);
      expect(done.event.type).toBe("turn_done");
      const result = sub.events.find((e) => e.event.type === "tool_result")?.event as { output: unknown; error: unknown } | undefined;
      expect(result?.error).toBeNull();
      const printed = toolOutput(result!.output);
      const names = printed.split("\n").map((line) => /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)?.[1]).filter(Boolean);
      expect(names).toContain("PATH"); // it is really the environment listing

      // No Coffer variable but the process ledger's random marker (no secret; orphan reaping needs it).
      expect(names.filter((n) => n!.toUpperCase().startsWith("COFFER_"))).toEqual(["COFFER_AGENT_MARK"]);
      for (const value of [...Object.values(PLANTED), h.daemon.daemon.token, h.daemon.home]) expect(printed).not.toContain(value);

      // It ran in the default workspace, which is not inside the data dir.
      const cwd = /^cwd=(.*)$/m.exec(printed)?.[1];
      expect(cwd).toBe(await realpath(h.daemon.workspace));
      expect(relative(await realpath(h.daemon.home), cwd!).startsWith("..")).toBe(true);
      sub.close();
    },
    60_000,
  );
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { buildQueryOptions, childEnv, defaultModel } from "./session-options.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const configDir = (settings?: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), "coffer-claude-cfg-"));
  dirs.push(dir);
  if (settings !== undefined) writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  return dir;
};

describe("defaultModel", () => {
  test("ANTHROPIC_MODEL, then the user settings' model, then the CLI's own default", () => {
    const withSettings = configDir({ model: "claude-sonnet-4-5" });
    expect(defaultModel({ CLAUDE_CONFIG_DIR: withSettings, ANTHROPIC_MODEL: "claude-haiku-4-5" })).toBe("claude-haiku-4-5");
    expect(defaultModel({ CLAUDE_CONFIG_DIR: withSettings })).toBe("claude-sonnet-4-5");
    expect(defaultModel({ CLAUDE_CONFIG_DIR: configDir() })).toBe("default");
    expect(defaultModel({ CLAUDE_CONFIG_DIR: configDir({ theme: "dark" }) })).toBe("default");
  });

  test("without CLAUDE_CONFIG_DIR the settings live in $HOME/.claude", () => {
    const home = configDir();
    const dotClaude = join(home, ".claude");
    mkdirSync(dotClaude);
    writeFileSync(join(dotClaude, "settings.json"), '{"model":"claude-opus-4-8"}');
    expect(defaultModel({ HOME: home })).toBe("claude-opus-4-8");
  });
});

describe("buildQueryOptions", () => {
  test("every turn passes cwd, model, bypassPermissions, partial messages and resume; env is spread", () => {
    const spawn = () => {
      throw new Error("not spawned here");
    };
    const options = buildQueryOptions(
      { executable: "/bin/claude", cwd: "/w", model: "m", resume: "s-1", env: { PATH: "/bin", KEEP: "me" } },
      spawn,
    );
    expect(options).toMatchObject({
      pathToClaudeCodeExecutable: "/bin/claude",
      cwd: "/w",
      model: "m",
      resume: "s-1",
      permissionMode: "bypassPermissions",
      allowDangerouslySkipPermissions: true,
      includePartialMessages: true,
    });
    expect(options.env).toMatchObject({ PATH: "/bin", KEEP: "me", CLAUDE_AGENT_SDK_CLIENT_APP: "coffer" });
    expect("resume" in buildQueryOptions({ executable: "c", cwd: "/w", model: "m", env: {} }, spawn)).toBe(false);
  });

  test("with the gateway: its startup timeout, and no newer-protocol probe the gateway would refuse", () => {
    const spawn = () => {
      throw new Error("not spawned here");
    };
    const gateway = { url: "http://127.0.0.1:1/mcp", token: "t" };
    const options = buildQueryOptions({ executable: "c", cwd: "/w", model: "m", env: {}, gateway }, spawn);
    expect(options.env).toMatchObject({ MCP_TIMEOUT: "15000", MCP_PROTOCOL_NEGOTIATION: "legacy" });
    expect(options.mcpServers).toEqual({ coffer: expect.objectContaining({ type: "http", url: gateway.url }) });
    expect(buildQueryOptions({ executable: "c", cwd: "/w", model: "m", env: {} }, spawn).env).not.toHaveProperty("MCP_PROTOCOL_NEGOTIATION");
  });

  test("as root the child is told it runs in a sandbox, which bypassPermissions requires", () => {
    expect(childEnv({}).IS_SANDBOX).toBe(process.getuid?.() === 0 ? "1" : undefined);
  });
});

import { ROUTES, type McpServerCreate, type McpServerOut, type SecretValue } from "@coffer/protocol";
import type { Command } from "commander";
import { CliError, type DaemonClient } from "../client.js";
import { print, printJson, summarise } from "../output.js";
import { cmd } from "../hints.js";

const collect = (value: string, previous: string[]) => [...previous, value];

interface AddOptions {
  http?: string;
  env: string[];
  envRef: string[];
  header: string[];
  headerRef: string[];
  cwd?: string;
  startupTimeout?: string;
  toolTimeout?: string;
  disabled?: boolean;
  json?: boolean;
}

/** `coffer mcp …`: the owner's upstream MCP servers behind Coffer's gateway, its tools and its log. */
export function registerMcp(program: Command, client: () => DaemonClient): void {
  const mcp = program.command("mcp").description("MCP servers behind Coffer's gateway, their tools, and the invocation log");

  mcp
    .command("ls")
    .description("upstream MCP servers with their status")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const { servers } = await client().call(ROUTES.listMcpServers);
      if (opts.json) return printJson({ servers });
      if (!servers.length) print(`no MCP servers (add one with \`${cmd("mcp add")}\`)\n`);
      for (const s of servers) print(`${serverLine(s)}\n`);
    });

  mcp
    .command("add <name> [command...]")
    .description("add a server: `coffer mcp add <name> -- <command> [args…]` (stdio) or `coffer mcp add <name> --http <url>` (HTTP)")
    .option("--http <url>", "a Streamable HTTP server's URL")
    .option("-e, --env <KEY=VALUE>", "an environment variable for a stdio server (repeatable)", collect, [])
    .option("--env-ref <KEY=CREDENTIAL>", "an environment variable taken from a stored credential (repeatable)", collect, [])
    .option("-H, --header <NAME=VALUE>", "an HTTP header (repeatable)", collect, [])
    .option("--header-ref <NAME=CREDENTIAL>", "an HTTP header taken from a stored credential (repeatable)", collect, [])
    .option("--cwd <dir>", "working directory of a stdio server")
    .option("--startup-timeout <ms>", "how long connecting and listing tools may take (default 10000)")
    .option("--tool-timeout <ms>", "how long one tool call may take (default 60000)")
    .option("--disabled", "add it switched off")
    .option("--json", "print JSON")
    .action(async (name: string, command: string[], opts: AddOptions) => {
      const body = addBody(name, command, opts);
      const server = await client().call(ROUTES.createMcpServer, { body });
      if (opts.json) return printJson(server);
      print(`added ${server.name} (${server.transport}); status: ${server.status}\n`);
    });

  mcp
    .command("rm <name>")
    .description("remove a server")
    .action(async (name: string) => {
      await client().call(ROUTES.deleteMcpServer, { params: { name } });
      print(`removed ${name}\n`);
    });

  for (const [verb, route, done] of [
    ["enable", ROUTES.enableMcpServer, "enabled"],
    ["disable", ROUTES.disableMcpServer, "disabled"],
  ] as const) {
    mcp
      .command(`${verb} <name>`)
      .description(`${verb} a server`)
      .option("--json", "print JSON")
      .action(async (name: string, opts: { json?: boolean }) => {
        const server = await client().call(route, { params: { name } });
        if (opts.json) return printJson(server);
        print(`${done} ${name}; status: ${server.status}\n`);
      });
  }

  mcp
    .command("tools [server]")
    .description("the tools agents see through the gateway (Coffer's own are under `coffer`)")
    .option("--json", "print JSON")
    .action(async (server: string | undefined, opts: { json?: boolean }) => {
      const { tools } = await client().call(ROUTES.listMcpTools);
      const shown = server ? tools.filter((t) => t.server === server) : tools;
      if (opts.json) return printJson({ tools: shown });
      if (!shown.length) print(server ? `no tools from ${server}\n` : "no tools\n");
      for (const t of shown) {
        print(`${t.name.padEnd(40)} ${t.available ? "" : "[unavailable] "}${summarise(t.description, 70)}\n`);
      }
    });

  mcp
    .command("log")
    .description("recent tool calls through the gateway, newest first")
    .option("-s, --server <name>", "only this server's (coffer = Coffer's own tools)")
    .option("-t, --tool <name>", "only this tool (as agents call it, e.g. github__create_issue)")
    .option("-n, --limit <n>", "how many (default 50)", "50")
    .option("--json", "print JSON")
    .action(async (opts: { server?: string; tool?: string; limit: string; json?: boolean }) => {
      const page = await client().call(ROUTES.listMcpInvocations, { query: { limit: opts.limit, server: opts.server, tool: opts.tool } });
      if (opts.json) return printJson(page);
      if (!page.invocations.length) print("no invocations\n");
      for (const i of page.invocations) {
        const when = i.at.slice(0, 19).replace("T", " ");
        print(`${when}  ${i.caller.padEnd(18)} ${i.tool.padEnd(36)} ${String(i.duration_ms).padStart(6)} ms  ${i.outcome}\n`);
      }
    });
}

function serverLine(s: McpServerOut): string {
  const target = s.transport === "http" ? s.url : [s.command, ...s.args].join(" ");
  const tools = s.tools.length === 1 ? "1 tool" : `${s.tools.length} tools`;
  return `${s.name.padEnd(20)} ${s.transport.padEnd(6)} ${s.status.padEnd(11)} ${tools.padEnd(9)} ${summarise(target ?? "", 50)}${
    s.error ? `\n${" ".repeat(21)}✗ ${s.error}` : ""
  }`;
}

function addBody(name: string, command: string[], opts: AddOptions): McpServerCreate {
  const timeouts = {
    ...(opts.startupTimeout ? { startup_timeout_ms: Number(opts.startupTimeout) } : {}),
    ...(opts.toolTimeout ? { tool_timeout_ms: Number(opts.toolTimeout) } : {}),
  };
  if (opts.http && command.length) throw new CliError("USAGE", "give either --http <url> or a command, not both");
  if (opts.http) {
    if (opts.env.length || opts.envRef.length || opts.cwd) throw new CliError("USAGE", "--env, --env-ref and --cwd are for stdio servers");
    const headers = { ...pairs(opts.header, (v) => v), ...pairs(opts.headerRef, (ref) => ({ credential: ref })) };
    return { name, transport: "http", url: opts.http, headers, enabled: !opts.disabled, ...timeouts };
  }
  if (!command.length) throw new CliError("USAGE", "give the server's command after `--`, or --http <url> for an HTTP server");
  if (opts.header.length || opts.headerRef.length) throw new CliError("USAGE", "--header and --header-ref are for HTTP servers");
  const env = { ...pairs(opts.env, (v) => v), ...pairs(opts.envRef, (ref) => ({ credential: ref })) };
  const [cmd, ...args] = command;
  return { name, transport: "stdio", command: cmd!, args, env, ...(opts.cwd ? { cwd: opts.cwd } : {}), enabled: !opts.disabled, ...timeouts };
}

function pairs(items: readonly string[], value: (v: string) => SecretValue): Record<string, SecretValue> {
  const out: Record<string, SecretValue> = {};
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new CliError("USAGE", `expected KEY=VALUE, got "${item}"`);
    out[item.slice(0, eq)] = value(item.slice(eq + 1));
  }
  return out;
}

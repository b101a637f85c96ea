import type { StdioClientTransport, StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SecretValue } from "@coffer/protocol";
import type { McpServerConfig, SecretResolver } from "../../application/gateway/gateway-ports.js";
import { cappedFetch } from "./capped-fetch.js";
import { mcpClientSdk } from "./mcp-sdk.js";

const STDERR_TAIL_BYTES = 600;

export interface OpenedTransport {
  readonly transport: Transport;
  /** The last lines the server wrote to stderr: usually why it crashed. */
  stderrTail(): string;
  /** Closes the connection; a child still running after `graceMs` is killed, so none is orphaned. */
  shutdown(graceMs: number): Promise<void>;
}

/**
 * A client transport for one upstream. Credential refs are resolved here, at launch, and
 * live only in the child's environment or the request headers — never stored or logged.
 * A stdio child inherits only the SDK's safe default variables (PATH, HOME, …), not the
 * daemon's environment.
 */
export async function openTransport(
  config: McpServerConfig,
  secrets: SecretResolver,
  scrub: (text: string) => string = (text) => text,
): Promise<OpenedTransport> {
  const { StreamableHTTPClientTransport } = await mcpClientSdk();
  if (config.transport === "http") {
    const headers = await resolveAll(config.headers, secrets);
    const transport = new StreamableHTTPClientTransport(new URL(config.url!), { requestInit: { headers }, fetch: cappedFetch() });
    return { transport, stderrTail: () => "", shutdown: () => transport.close() };
  }
  const env = await resolveAll(config.env, secrets);
  const transport = await trackedStdioTransport({
    command: config.command!,
    args: [...config.args],
    env,
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: "pipe",
  });
  let tail = "";
  // The child's stderr ends when it exits: the one exit signal the SDK transport lets us see.
  let exited = false;
  transport.stderr?.on("data", (chunk: Buffer) => {
    // Scrubbed before it is cut: a cut through a secret would leave a piece no scrubber knows.
    tail = scrub(tail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
  });
  transport.stderr?.on("end", () => (exited = true));
  return {
    transport,
    stderrTail: () => tail.replace(/\s+/g, " "),
    async shutdown(graceMs) {
      // The SDK's close ends stdin and waits up to 2 s before SIGTERM, 2 s more before SIGKILL —
      // and when the client already started a close (failed `initialize`) it returns at once.
      const pid = transport.spawnedPid;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([transport.close(), graceOver]);
      if (!exited) await graceOver;
      clearTimeout(timer);
      if (!exited && pid !== null) killQuietly(pid);
    },
  };
}

type TrackedStdioTransport = StdioClientTransport & { readonly spawnedPid: number | null };

/**
 * A stdio transport that remembers its child's pid: the SDK forgets it as soon as a close
 * starts, which would leave a wedged child to linger.
 */
async function trackedStdioTransport(params: StdioServerParameters): Promise<TrackedStdioTransport> {
  const { StdioClientTransport } = await mcpClientSdk();
  class Tracked extends StdioClientTransport {
    spawnedPid: number | null = null;

    override async start(): Promise<void> {
      await super.start();
      this.spawnedPid = this.pid;
    }
  }
  return new Tracked(params);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err; // already gone
  }
}

async function resolveAll(values: Readonly<Record<string, SecretValue>>, secrets: SecretResolver): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = typeof value === "string" ? value : await secrets.resolve(value.credential);
  }
  return out;
}

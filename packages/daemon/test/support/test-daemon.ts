import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveDaemonConfig, startDaemon, type RunningDaemon, type StartOptions } from "../../src/main.js";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { ApiClient, SseSubscription } from "./http-client.js";
import { ScriptedAgentProvider } from "./scripted-agent.js";

export interface TestDaemon {
  readonly daemon: RunningDaemon;
  readonly api: ApiClient;
  readonly scripted: ScriptedAgentProvider;
  readonly home: string;
  /** The default workspace agents run in: outside the data dir, under the daemon's HOME. */
  readonly workspace: string;
  subscribe(conversationId: string, lastEventId?: string): Promise<SseSubscription>;
  subscribeList(): Promise<SseSubscription>;
  /** Create a conversation with the scripted agent and return its id. */
  conversation(agentConfig?: Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function makeHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), "coffer-test-"));
}

/** A real daemon on 127.0.0.1:0 with a temp data dir and the scripted agent registered. */
export async function startTestDaemon(
  overrides: Partial<StartOptions> & { home?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<TestDaemon> {
  const home = overrides.home ?? (await makeHome());
  const scripted = new ScriptedAgentProvider();
  // The default workspace follows HOME: here a temp one beside the data dir, never the
  // developer's ~/coffer-workspace (the agent harness passes its rig's own).
  const ownerHome = `${home}-owner`;
  // COFFER_KEYRING=off: a developer's desktop keyring never gets test keys (tests of the keyring pass `keyring`).
  const base = resolveDaemonConfig({ ...process.env, HOME: ownerHome, COFFER_LOG_LEVEL: "silent", COFFER_KEYRING: "off" }, { port: 0, home });
  const daemon = await startDaemon({
    ...base,
    logger: consoleLogger("silent"),
    webRoot: null,
    providers: (defaults) => [...defaults, scripted],
    ...overrides,
    timings: { ...base.timings, ...overrides.timings },
  });
  const api = new ApiClient(daemon.url, daemon.token);
  return {
    daemon,
    api,
    scripted,
    home,
    workspace: overrides.workspace ?? base.workspace,
    subscribe: (id, lastEventId) => SseSubscription.open(daemon.url, daemon.token, `/chat/conversations/${id}/events`, lastEventId),
    subscribeList: () => SseSubscription.open(daemon.url, daemon.token, "/chat/events"),
    async conversation(agentConfig = {}) {
      const res = await api.post("/chat/conversations", { agent_key: "scripted", agent_config: agentConfig });
      if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    stop: () => daemon.close(),
    async close() {
      await daemon.close();
      await rm(home, { recursive: true, force: true });
      await rm(ownerHome, { recursive: true, force: true });
    },
  };
}

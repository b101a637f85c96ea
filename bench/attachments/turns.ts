/**
 * The bench's daemon and its timed turns: one daemon process with both real agent CLIs (and a
 * fake Bot API it long-polls, for the phone's surface), and for
 * each surface a text-only message then the same with an image, timed from the send's start to
 * the agent's first request at the fake model server. Used by main.ts and by the test that proves
 * the bench runs (packages/daemon/test/integration/attachments-bench.test.ts).
 */
import { randomBytes } from "node:crypto";
import { hermeticPath, makeAgentRig, type AgentKey, type AgentRig } from "../../packages/daemon/test/fakes/agent-rig.js";
import { ApiClient } from "../../packages/daemon/test/support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../../packages/daemon/test/support/spawn-daemon.js";
import { makeHome } from "../../packages/daemon/test/support/test-daemon.js";
import type { FakeTelegram } from "../../packages/daemon/test/fakes/fake-telegram.js";
import { within } from "../support/child.js";
import { firstRequest, type Rigs } from "./model-side.js";
import { pageSurface, type BenchDaemon, type Surface } from "./surfaces.js";
import { startFakeTelegram } from "./telegram-surface.js";

const TURN_MS = 120_000;

/** A surface's samples (ms): the text-only floor and the image, one of each per run; the upload alone where the surface shows it. */
export interface Column {
  readonly text: number[];
  readonly image: number[];
  readonly upload: number[];
}

export interface BenchRig {
  readonly rigs: Rigs;
  readonly child: DaemonProcess;
  readonly d: BenchDaemon;
  readonly api: ApiClient;
  /** The fake Bot API the daemon's Telegram connection talks to (telegram-surface.ts pairs a channel on it). */
  readonly tg: FakeTelegram;
  close(): Promise<void>;
}

/** Both agents' rigs (CLI + fake model server), a fake Bot API, and one daemon process with both agents on its PATH. */
export async function startBenchRig(): Promise<BenchRig> {
  const claude = await makeAgentRig("claude_code");
  const codex = await makeAgentRig("codex");
  const telegram = await startFakeTelegram();
  const home = await makeHome();
  const env: NodeJS.ProcessEnv = {
    ...claude.env,
    ...codex.env,
    ...telegram.env,
    CLAUDE_CONFIG_DIR: claude.agentHome,
    PATH: [claude.binDir, hermeticPath(codex.binDir)].join(":"),
    COFFER_WEB_ROOT: "none",
    COFFER_LOG_LEVEL: "error",
  };
  const child = await spawnDaemon(home, env, { hermetic: true });
  return {
    rigs: { claude_code: claude, codex },
    child,
    d: { url: child.url, token: child.token, home },
    api: new ApiClient(child.url, child.token),
    tg: telegram.tg,
    async close() {
      if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGTERM");
      await child.exited;
      await claude.close();
      await codex.close();
      await telegram.tg.close();
    },
  };
}

/** From the send's start to the agent's first request carrying the message, at the fake model server. */
async function timeTurn(b: BenchRig, agent: AgentKey, s: Surface, id: string, label: string, image: string | null): Promise<{ ms: number; uploadMs?: number }> {
  const tag = `bench-${randomBytes(4).toString("hex")}`;
  const seen = firstRequest(b.rigs, agent, tag);
  const { startedAt, uploadMs } = await within(TURN_MS, s.send(b.d, id, `${label} ${tag}`, image), `${agent} ${s.name} ${label}`);
  const request = await within(TURN_MS, seen, `the model request of ${label}`);
  if (request.hasImage !== (image !== null)) throw new Error(`${agent} ${s.name} ${label}: the model request ${request.hasImage ? "had" : "lacked"} an image`);
  return { ms: request.receivedAt - startedAt, ...(uploadMs === undefined ? {} : { uploadMs }) };
}

/** `runs` × (text, image) per surface, each pair in a fresh conversation warmed by a first message. */
export async function imageTurns(b: BenchRig, agent: AgentKey, surfaces: readonly Surface[], image: string, runs: number): Promise<Map<string, Column>> {
  const out = new Map(surfaces.map((s) => [s.name, { text: [], image: [], upload: [] } as Column]));
  for (let run = 0; run < runs; run++) {
    for (const s of surfaces) {
      // The warm-up keeps the agent's cold start out (bench/agent-turns' figure); text before the
      // image, so the floor's history holds no image and both run on the same warm process.
      const created = await b.api.post("/chat/conversations", { agent_key: agent, agent_config: {} });
      if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
      const id = created.body.id as string;
      await timeTurn(b, agent, pageSurface, id, "warm-up", null);
      const column = out.get(s.name)!;
      column.text.push((await timeTurn(b, agent, s, id, `text ${run}`, null)).ms);
      const withImage = await timeTurn(b, agent, s, id, `image ${run}`, image);
      column.image.push(withImage.ms);
      if (withImage.uploadMs !== undefined) column.upload.push(withImage.uploadMs);
      await b.api.delete(`/chat/conversations/${id}`);
    }
  }
  return out;
}

/** Whether the daemon lists this agent as available (its CLI found on the hermetic PATH). */
export async function agentAvailable(b: BenchRig, agent: AgentKey): Promise<boolean> {
  const agents = (await b.api.get("/chat/agents")).body.agents as { agent_key: string; available: boolean }[];
  return agents.some((a) => a.agent_key === agent && a.available);
}

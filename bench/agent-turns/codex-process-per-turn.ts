/**
 * The comparison row: upstream Coffer started a fresh `codex app-server` for every turn
 * (spawn → initialize → thread/resume → turn/start). Driven straight over stdio with the
 * daemon's own process wrapper, so no HTTP or SSE cost is counted against it.
 */
import { AppServerProcess } from "../../packages/daemon/src/infrastructure/agents/codex/app-server-process.js";
import { resolveCodexLaunch } from "../../packages/daemon/src/infrastructure/agents/codex/codex-launch.js";
import { threadResumeParams, threadStartParams, turnStartParams } from "../../packages/daemon/src/infrastructure/agents/codex/thread-params.js";
import type { CodexSandbox } from "../../packages/daemon/test/fakes/codex-home.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** One app-server process running one turn; resolves when the turn has completed. */
export async function oneProcessTurn(sandbox: CodexSandbox, text: string, threadId: string | null): Promise<{ threadId: string; firstDeltaMs: number }> {
  const launch = resolveCodexLaunch(sandbox.env);
  if (!launch.binary) throw new Error("no codex on the sandbox PATH");
  let onDelta: () => void = () => {};
  let onCompleted: () => void = () => {};
  const firstDelta = new Promise<void>((r) => (onDelta = r));
  const completed = new Promise<void>((r) => (onCompleted = r));
  const t0 = performance.now();
  const proc = new AppServerProcess(
    { ...launch, binary: launch.binary },
    {
      onNotification: (method) => {
        if (method === "item/agentMessage/delta") onDelta();
        if (method === "turn/completed") onCompleted();
      },
      onRequest: () => null,
    },
    silent,
  );
  try {
    const rpc = proc.connection;
    await rpc.request("initialize", { clientInfo: { name: "coffer-bench", title: null, version: "0" }, capabilities: null });
    rpc.notify("initialized");
    const settings = { cwd: sandbox.codexHome, model: undefined };
    const opened = await rpc.request<{ thread: { id: string } }>(
      threadId ? "thread/resume" : "thread/start",
      threadId ? threadResumeParams(threadId, settings) : threadStartParams(settings),
    );
    await rpc.request("turn/start", turnStartParams(opened.thread.id, text, null));
    await firstDelta;
    const firstDeltaMs = performance.now() - t0;
    await completed;
    return { threadId: opened.thread.id, firstDeltaMs };
  } finally {
    await proc.stop();
  }
}

/** Median-ready samples: spawn → first delta, each on a resumed thread as upstream did. */
export async function processPerTurnStart(sandbox: CodexSandbox, runs: number): Promise<number[]> {
  const { threadId } = await oneProcessTurn(sandbox, "per-turn warm-up", null);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push((await oneProcessTurn(sandbox, `per-turn ${i}`, threadId)).firstDeltaMs);
  return samples;
}

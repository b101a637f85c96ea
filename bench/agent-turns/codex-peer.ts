/**
 * The per-message peer for Codex: a new `codex app-server` for every message (spawn →
 * initialize → thread/start or thread/resume → turn/start), as upstream Coffer did, on the same
 * binary and fake; driven straight over stdio (codex-process-per-turn.ts), which flatters it.
 * Its second watcher sees the reply once Codex has written it to the rollout on disk.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { CodexSandbox } from "../../packages/daemon/test/fakes/codex-home.js";
import { oneProcessTurn } from "./codex-process-per-turn.js";
import type { PeerTurn } from "./claude-peer.js";
import { watchTranscripts } from "./transcript-watch.js";

export async function codexPeerTurn(sandbox: CodexSandbox, text: string, threadId: string | null): Promise<PeerTurn> {
  const sessions = join(sandbox.codexHome, "sessions");
  await mkdir(sessions, { recursive: true });
  // The fake streams "Echo: " + the text in pieces; the rollout holds the whole reply.
  const watch = watchTranscripts(sessions, `Echo: ${text}`);
  const t0 = performance.now();
  try {
    const turn = await oneProcessTurn(sandbox, text, threadId);
    const watcher = (await watch.seen) - t0;
    return { firstText: turn.firstDeltaMs, watcher, sessionId: turn.threadId };
  } finally {
    watch.close();
  }
}

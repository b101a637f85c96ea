/**
 * The per-message peer for Claude Code: a web UI that starts a new `claude` for every message
 * through the Agent SDK (`query()` with the message as its prompt, `resume` for a follow-up),
 * on the SAME binary and fake model server as Coffer, driven in-process with the SDK already
 * loaded (its server imports it at start) and no HTTP in between — so it is flattered, not
 * penalised. No MCP server: the peer's owner may have none; Coffer always offers its gateway.
 * With `mcp`, the same peer with Coffer's gateway configured as its one MCP server: the
 * like-for-like floor (same tools offered to the model).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import type { AgentRig } from "../../packages/daemon/test/fakes/agent-rig.js";
import { watchTranscripts } from "./transcript-watch.js";

export interface PeerTurn {
  /** Send → first text delta at the sender. */
  readonly firstText: number;
  /** Send → the reply visible to a second watcher (on disk, transcript-watch.ts). */
  readonly watcher: number;
  readonly sessionId: string;
}

/** An MCP server the peer's owner configured (Streamable HTTP), for a like-for-like figure. */
export interface PeerMcp {
  readonly url: string;
  readonly token: string;
}

export async function claudePeerTurn(rig: AgentRig<"claude_code">, text: string, resume?: string, mcp?: PeerMcp): Promise<PeerTurn> {
  const projects = join(rig.agentHome, "projects");
  await mkdir(projects, { recursive: true });
  const watch = watchTranscripts(projects, `Fake reply to: ${text}`);
  const t0 = performance.now();
  const q = query({
    prompt: text,
    options: {
      pathToClaudeCodeExecutable: join(rig.binDir, "claude"),
      cwd: rig.workDir,
      model: "claude-sonnet-4-5",
      permissionMode: "bypassPermissions",
      allowDangerouslySkipPermissions: true,
      includePartialMessages: true,
      ...(resume ? { resume } : {}),
      // Configured as an owner would (no env tuning): the same server Coffer offers its agents.
      ...(mcp ? { mcpServers: { coffer: { type: "http", url: mcp.url, headers: { Authorization: `Bearer ${mcp.token}` } } } } : {}),
      env: { ...rig.env, ...(process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {}) },
    },
  });
  let firstText = 0;
  let sessionId = resume ?? "";
  try {
    for await (const m of q as AsyncIterable<any>) {
      if (!firstText && m.type === "stream_event" && m.event?.type === "content_block_delta" && m.event.delta?.type === "text_delta") {
        firstText = performance.now() - t0;
      }
      if (typeof m.session_id === "string") sessionId = m.session_id;
      if (m.type === "result") break;
    }
    const watcher = (await watch.seen) - t0;
    return { firstText, watcher, sessionId };
  } finally {
    watch.close();
    q.close();
  }
}

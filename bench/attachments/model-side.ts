/** The agents' first model request for a message, as each fake model server recorded it. */
import type { AgentKey, AgentRig } from "../../packages/daemon/test/fakes/agent-rig.js";

export interface Rigs {
  readonly claude_code: AgentRig<"claude_code">;
  readonly codex: AgentRig<"codex">;
}

export interface SeenRequest {
  /** performance.now() (this process's clock) when the request's body had fully arrived. */
  readonly receivedAt: number;
  /** Whether the message's turn reached the model with an image (an Anthropic image block, a Responses input_image). */
  readonly hasImage: boolean;
}

/**
 * Resolves with the first request whose latest user message carries `tag`. `hasImage` looks at the
 * whole request: the bench sends a conversation's text-only message before its image, so an image
 * in it is this message's.
 */
export async function firstRequest(rigs: Rigs, agent: AgentKey, tag: string): Promise<SeenRequest> {
  if (agent === "claude_code") {
    const r = await rigs.claude_code.fake.waitForRequest((q) => q.raw.includes(tag));
    const body = JSON.parse(r.raw) as { messages: { content: unknown }[] };
    const blocks = body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string }[]) : []));
    return { receivedAt: r.receivedAt, hasImage: blocks.some((b) => b.type === "image") };
  }
  const r = await rigs.codex.fake.waitForRequest((q) => q.userText.includes(tag));
  return { receivedAt: r.receivedAt, hasImage: r.input.some((item) => (item.content ?? []).some((p) => p.type === "input_image")) };
}

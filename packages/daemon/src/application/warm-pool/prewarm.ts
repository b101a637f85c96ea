import type { PrewarmState } from "@coffer/protocol";
import type { AgentRegistry } from "../agent-registry.js";
import type { Clock, ConversationStore } from "../ports.js";
import { ConversationNotFound } from "../../domain/errors.js";
import { StartBudget } from "./start-budget.js";

/** The page debounces; this is the daemon's own floor between two pre-warms of one target. */
export const PREWARM_MIN_INTERVAL_MS = 1000;
/**
 * Process starts pre-warm may make across every target: 4 at once, then 6 a minute. Ever-new
 * settings are each a new target, so the per-target floor alone let a burst start hundreds.
 */
export const PREWARM_START_BURST = 4;
export const PREWARM_STARTS_PER_MINUTE = 6;

export interface PrewarmRequestIn {
  readonly agentKey: string;
  readonly conversationId?: string;
  readonly cwd?: string;
  readonly model?: string;
}

/**
 * Pre-warm on intent: the owner opened a draft or a conversation and started typing, so the
 * agent's process starts now and the first message pays no start-up. Idempotent (a warm
 * process is only touched), rate-limited per target, and always within the warm pool's cap.
 */
export class PrewarmService {
  private readonly lastAt = new Map<string, number>();
  private readonly starts: StartBudget;

  constructor(
    private readonly deps: { readonly registry: AgentRegistry; readonly store: Pick<ConversationStore, "getConversation">; readonly clock: Clock },
  ) {
    this.starts = new StartBudget(deps.clock, PREWARM_START_BURST, PREWARM_STARTS_PER_MINUTE);
  }

  async prewarm(request: PrewarmRequestIn): Promise<PrewarmState> {
    const provider = this.deps.registry.get(request.agentKey);
    const conversation = request.conversationId ? this.deps.store.getConversation(request.conversationId) : null;
    if (request.conversationId && !conversation) throw new ConversationNotFound(request.conversationId);
    // Another agent's conversation has nothing of this agent to warm.
    if (conversation && conversation.agentKey !== request.agentKey) return "skipped";
    if (!provider.prewarm) return "skipped";
    const target = JSON.stringify([request.agentKey, request.conversationId ?? null, request.cwd ?? null, request.model ?? null]);
    const now = this.deps.clock.now();
    const last = this.lastAt.get(target);
    if (last !== undefined && now - last < PREWARM_MIN_INTERVAL_MS) return "throttled";
    // Taken before the agent is asked (concurrent asks cannot overdraw); back when nothing started.
    if (!this.starts.take()) return "throttled";
    const state = await provider
      .prewarm({
        conversation,
        ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
        ...(request.model !== undefined ? { model: request.model } : {}),
      })
      .catch((err: unknown) => {
        this.starts.giveBack();
        throw err;
      });
    if (state !== "started") this.starts.giveBack();
    // Only work done is throttled: a skipped one (no room yet) may be asked again at once.
    if (state !== "skipped") {
      this.lastAt.set(target, now);
      this.forgetOld(now);
    }
    return state;
  }

  /** The throttle remembers only the last interval's targets. */
  private forgetOld(now: number): void {
    if (this.lastAt.size < 64) return;
    for (const [key, at] of this.lastAt) if (now - at >= PREWARM_MIN_INTERVAL_MS) this.lastAt.delete(key);
  }
}

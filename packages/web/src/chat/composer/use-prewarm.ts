import { CHAT_AREA_ROUTES } from "@coffer/protocol";
import { useCallback, useEffect, useRef } from "react";
import { useApi } from "../../api/api-context.js";

/** After the first keystroke, how long typing must pause before the hint goes (one call per burst). */
const DEBOUNCE_MS = 300;
/** While the owner keeps typing, the hint is repeated this often so an idle timeout does not undo it. */
const REPEAT_MS = 60_000;

export interface PrewarmTarget {
  /** An existing conversation; absent for a draft. */
  readonly conversationId?: string;
  /** A draft's folder and model, as the conversation will be created with. */
  readonly cwd?: string;
  readonly model?: string | null;
}

/**
 * Pre-warm on intent: the owner has started typing to this agent, so the daemon may start
 * its process now and the first message pays no start-up (POST /chat/agents/{agent}/prewarm).
 * Returns the composer's on-typing callback. The call is a hint: debounced, repeated at most
 * once a minute per target, and its answer or failure is ignored (the daemon decides, within
 * its warm pool's cap).
 */
export function usePrewarm(agentKey: string | null, target: PrewarmTarget): (text: string) => void {
  const api = useApi();
  const { conversationId, cwd, model } = target;
  const key = JSON.stringify([agentKey, conversationId ?? null, cwd?.trim() || null, model ?? null]);
  const sentAt = useRef(new Map<string, number>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  return useCallback(
    (text: string) => {
      if (!agentKey || !text.trim()) return;
      const last = sentAt.current.get(key);
      if (last !== undefined && Date.now() - last < REPEAT_MS) return;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        sentAt.current.set(key, Date.now());
        const body = {
          ...(conversationId ? { conversation_id: conversationId } : {}),
          ...(cwd?.trim() ? { cwd: cwd.trim() } : {}),
          ...(model ? { model } : {}),
        };
        api.call(CHAT_AREA_ROUTES.prewarmAgent, { params: { agent: agentKey }, body }).catch(() => undefined);
      }, DEBOUNCE_MS);
    },
    [api, agentKey, key, conversationId, cwd, model],
  );
}

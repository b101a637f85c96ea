import { CHAT_AREA_ROUTES } from "@coffer/protocol";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useApi } from "../../api/api-context.js";
import { formatTokens } from "../../ui/token-count.js";
import { useLive } from "../live/use-live.js";

const contextKey = (id: string) => ["conversation-context", id] as const;

/**
 * How full this conversation's context was after its latest turn, against the model's window
 * (GET …/context). Hidden while either is unknown: no agent report yet, or no window named.
 * Refetched when a turn ends, as the plan gauges are.
 */
export function ContextGauge({ conversationId }: { conversationId: string }) {
  const api = useApi();
  const client = useQueryClient();
  const running = useLive((s) => s.view.running);
  const usage = useQuery({ queryKey: contextKey(conversationId), queryFn: () => api.call(CHAT_AREA_ROUTES.getContextUsage, { params: { id: conversationId } }) });
  useEffect(() => {
    if (running === false) void client.invalidateQueries({ queryKey: contextKey(conversationId) });
  }, [running, client, conversationId]);
  const context = usage.data?.context;
  if (!context?.window_tokens) return null;
  return <ContextMeter used={context.used_tokens} windowTokens={context.window_tokens} />;
}

/** The gauge itself: the word "context" (never "ctx") beside a thin bar; the numbers are in its name and tooltip. */
export function ContextMeter({ used, windowTokens }: { used: number; windowTokens: number }) {
  const percent = Math.min(100, Math.max(0, (used / windowTokens) * 100));
  const label = `Context: ${formatTokens(used)} of ${formatTokens(windowTokens)} tokens (${Math.round(percent)}%)`;
  return (
    <span
      className={`plan-gauge ${percent >= 90 ? "plan-gauge-full" : percent >= 75 ? "plan-gauge-high" : ""}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      title={label}
    >
      <span className="plan-gauge-name">context</span>
      <span className="plan-gauge-bar">
        <span style={{ width: `${percent}%` }} />
      </span>
    </span>
  );
}

import { ROUTES } from "@coffer/protocol";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useApi } from "../../api/api-context.js";
import { useLive } from "../live/use-live.js";

const contextKey = (id: string) => ["conversation-context", id] as const;

/** 1234 → "1.2k", 200000 → "200k": what fits beside a small bar. */
function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  return `${Math.round(n / 1000)}k`;
}

/**
 * How full this conversation's context was after its latest turn, against the model's window
 * (GET …/context). Hidden while either is unknown: no agent report yet, or no window named.
 * Refetched when a turn ends, as the plan gauges are.
 */
export function ContextGauge({ conversationId }: { conversationId: string }) {
  const api = useApi();
  const client = useQueryClient();
  const running = useLive((s) => s.view.running);
  const usage = useQuery({ queryKey: contextKey(conversationId), queryFn: () => api.call(ROUTES.getContextUsage, { params: { id: conversationId } }) });
  useEffect(() => {
    if (running === false) void client.invalidateQueries({ queryKey: contextKey(conversationId) });
  }, [running, client, conversationId]);
  const context = usage.data?.context;
  if (!context?.window_tokens) return null;
  const percent = Math.min(100, Math.max(0, (context.used_tokens / context.window_tokens) * 100));
  const label = `Context: ${tokens(context.used_tokens)} of ${tokens(context.window_tokens)} tokens (${Math.round(percent)}%)`;
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
      <span className="plan-gauge-name">ctx</span>
      <span className="plan-gauge-bar">
        <span style={{ width: `${percent}%` }} />
      </span>
    </span>
  );
}

import type { AgentLimitsOut, LimitWindow } from "@coffer/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { keys, useAgents } from "../../api/queries.js";
import { useLive } from "../live/use-live.js";

const WINDOW_NAMES: Record<string, string> = { five_hour: "5h", seven_day: "7d", primary: "5h", secondary: "7d" };

function windowName(w: LimitWindow): string {
  if (w.window_minutes === 300) return "5h";
  if (w.window_minutes === 10_080) return "7d";
  return WINDOW_NAMES[w.window] ?? w.window.replace(/_/g, " ");
}

function resetText(w: LimitWindow): string {
  if (!w.resets_at) return "";
  const t = new Date(w.resets_at).toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit", hour12: false });
  return ` · resets ${t}`;
}

/**
 * The agent's plan windows as it last reported them (GET /chat/agents `limits`): one small
 * meter per window. Refetched when a turn ends, since each model call may move them.
 */
export function PlanGauges({ agentKey }: { agentKey: string }) {
  const agents = useAgents();
  const client = useQueryClient();
  const running = useLive((s) => s.view.running);
  useEffect(() => {
    if (running === false) void client.invalidateQueries({ queryKey: keys.agents });
  }, [running, client]);
  const limits: AgentLimitsOut | null | undefined = agents.data?.agents.find((a) => a.agent_key === agentKey)?.limits;
  const windows = limits?.windows.filter((w) => w.used_percent !== null) ?? [];
  if (!windows.length) return null;
  return (
    <span className="plan-gauges" aria-label="Plan limits">
      {windows.map((w) => {
        const used = Math.min(100, Math.max(0, w.used_percent!));
        const label = `${windowName(w)} plan window: ${Math.round(used)}% used${resetText(w)}`;
        return (
          <span key={w.window} className={`plan-gauge ${used >= 100 ? "plan-gauge-full" : used >= 80 ? "plan-gauge-high" : ""}`} role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(used)} title={label}>
            <span className="plan-gauge-name">{windowName(w)}</span>
            <span className="plan-gauge-bar"><span style={{ width: `${used}%` }} /></span>
          </span>
        );
      })}
    </span>
  );
}

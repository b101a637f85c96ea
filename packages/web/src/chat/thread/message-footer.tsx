import type { TurnOutcome } from "../live/apply-event.js";
import { Icon } from "../../ui/icons.js";

/** 1,234 / 12.3k. Not toLocaleString: its first call loads ICU data and stalls the first paint. */
function count(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

interface Props {
  readonly model: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  readonly failed: boolean;
  readonly outcome: TurnOutcome | undefined;
  /** Copy / Retry, first on the line. */
  readonly actions?: React.ReactNode;
}

/** One meta line under a reply: model and tokens, and how it ended when it did not complete. */
export function MessageFooter({ model, promptTokens, completionTokens, failed, outcome, actions }: Props) {
  const parts: string[] = [];
  if (model) parts.push(model);
  if (promptTokens !== null) parts.push(`${count(promptTokens)} in`);
  if (completionTokens !== null) parts.push(`${count(completionTokens)} out`);
  const stopped = outcome?.stopReason === "interrupted";
  const timedOut = outcome?.error?.code === "turn_timeout";
  return (
    <div className="msg-footer">
      {actions}
      {failed && (
        <span className="footer-failed">
          <Icon name="alert" size={14} />
          {timedOut ? "Timed out — no output for too long" : `Failed${outcome?.error ? ` — ${outcome.error.message}` : ""}`}
        </span>
      )}
      {stopped && !failed && (
        <span className="footer-stopped">
          <Icon name="square" size={12} />
          Stopped
        </span>
      )}
      {parts.length > 0 && (
        <span className="footer-meta" title={[promptTokens, completionTokens].filter((n) => n !== null).map(String).join(" in / ") + (completionTokens !== null ? " out" : "")}>
          {parts.join(" · ")}
        </span>
      )}
    </div>
  );
}

import type { McpServerOut } from "@coffer/protocol";
import { useId, useState } from "react";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { Icon } from "../../ui/icons.js";
import { plural } from "../../ui/plural.js";
import { StatusDot, type Tone } from "../../ui/page-kit.js";

const STATUS: Record<McpServerOut["status"], { tone: Tone; word: string }> = {
  ready: { tone: "success", word: "Connected" },
  connecting: { tone: "warning", word: "Connecting…" },
  failed: { tone: "danger", word: "Unavailable" },
  disabled: { tone: "neutral", word: "Disabled" },
};

/** `onDelete` runs once the owner has confirmed. */
export function McpServerCard({ server: s, onEdit, onToggle, onDelete }: { server: McpServerOut; onEdit: () => void; onToggle: () => void; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const toolsId = useId();
  const status = STATUS[s.status];
  const target = s.transport === "stdio" ? [s.command, ...s.args].join(" ") : s.url;
  return (
    <li className="server" aria-label={`${s.name}, ${status.word}`}>
      <div className="server-head">
        <span className="server-name">{s.name}</span>
        <span className="chip">{s.transport}</span>
        <StatusDot tone={status.tone}>{status.word}</StatusDot>
        <span className="server-target" title={target ?? ""}>
          {target}
        </span>
        <div className="row-actions">
          <button type="button" className="btn btn-sm" aria-label={`${s.enabled ? "Disable" : "Enable"} ${s.name}`} onClick={onToggle}>
            <Icon name="power" size={14} /> {s.enabled ? "Disable" : "Enable"}
          </button>
          <button type="button" className="btn btn-sm" aria-label={`Edit ${s.name}`} onClick={onEdit}>
            <Icon name="pencil" size={14} /> Edit
          </button>
          <ConfirmAction
            label="Remove"
            ariaLabel={`Remove ${s.name}`}
            title={`Remove '${s.name}'?`}
            body={`Its ${plural(s.tools.length, "tool")} leave${s.tools.length === 1 ? "s" : ""} the gateway. The tool calls log keeps its history.`}
            confirmLabel="Remove server"
            onConfirm={onDelete}
          />
        </div>
      </div>
      {s.status === "failed" && s.error && <p className="server-error">{s.error}</p>}
      {s.tools.length > 0 ? (
        <>
          <button type="button" className="disclosure" aria-expanded={open} aria-controls={toolsId} onClick={() => setOpen(!open)}>
            <Icon name="chevronRight" size={14} /> Tools · {s.tools.length}
          </button>
          {open && (
            <ul id={toolsId} className="tool-list" aria-label={`Tools of ${s.name}`}>
              {s.tools.map((t) => (
                <li key={t.name}>
                  <code>{t.name}</code>
                  <span className="tool-desc">{t.description}</span>
                  {t.available ? <StatusDot tone="success">Available</StatusDot> : <StatusDot tone="neutral">Unavailable</StatusDot>}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <span className="field-hint">{s.status === "connecting" ? "Listing tools…" : "No tools known yet."}</span>
      )}
    </li>
  );
}

import { humanToolName, type ToolResultBlock, type ToolUseBlock } from "@coffer/protocol";
import { memo, useId, useState } from "react";
import { Icon } from "../../ui/icons.js";

export type ToolStatus = "running" | "done" | "failed" | "interrupted";

const MAX_LINES = 200;

/** The one-line summary: the path, the command or the query — whatever the call is about. */
export function keyArgument(input: unknown): string {
  if (input === null || input === undefined) return "";
  if (typeof input !== "object") return String(input);
  const o = input as Record<string, unknown>;
  for (const k of ["command", "cmd", "file_path", "path", "pattern", "query", "url", "description"]) {
    const v = o[k];
    if (typeof v === "string" && v) {
      const lines = v.split("\n");
      return lines.length > 1 ? `script (${lines.length} lines)` : v;
    }
  }
  const first = Object.values(o).find((v) => typeof v === "string");
  return typeof first === "string" ? first : "";
}

function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  return JSON.stringify(value, null, 2);
}

function Section({ caption, text, tone }: { caption: string; text: string; tone?: "danger" }) {
  const [all, setAll] = useState(false);
  const lines = text.split("\n");
  const shown = all ? text : lines.slice(0, MAX_LINES).join("\n");
  return (
    <div className="tool-section">
      <div className="tool-caption">
        <span className={tone === "danger" ? "text-danger" : undefined}>{caption}</span>
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => void navigator.clipboard?.writeText(text)}>
          Copy
        </button>
      </div>
      <pre className="tool-body">{shown || "(empty)"}</pre>
      {!all && lines.length > MAX_LINES && (
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => setAll(true)}>
          Show all ({lines.length} lines)
        </button>
      )}
    </div>
  );
}

/** A tool call inline in the reply: collapsed by default, never opening by itself. */
export const ToolCard = memo(function ToolCard({ use, result, status }: { use: ToolUseBlock; result: ToolResultBlock | null; status: ToolStatus }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const arg = keyArgument(use.tool_input);
  const name = humanToolName(use.tool_name);
  const word = { running: "running", done: "done", failed: "failed", interrupted: "stopped" }[status];
  const input =
    use.tool_input && typeof use.tool_input === "object" && typeof (use.tool_input as { command?: unknown }).command === "string"
      ? `$ ${(use.tool_input as { command: string }).command}`
      : pretty(use.tool_input);
  return (
    <div className={`tool-card tool-${status}`}>
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        aria-controls={panel}
        aria-label={`${name}${arg ? `: ${arg}` : ""}, ${word}`}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="tool-status" aria-hidden="true">
          {status === "running" ? <Icon name="spinner" size={14} /> : status === "failed" ? <Icon name="x" size={14} /> : status === "interrupted" ? <Icon name="square" size={14} /> : <Icon name="check" size={14} />}
        </span>
        <span className="tool-name" title={use.tool_name}>{name}</span>
        <span className="tool-arg">{arg}</span>
        <span className={`tool-word ${status === "failed" ? "text-danger" : ""}`}>{status === "done" ? "" : word}</span>
        <Icon name="chevronRight" size={14} className="tool-chevron" />
      </button>
      {open && (
        <div id={panel} className="tool-panel">
          <Section caption="Input" text={input} />
          {result?.error ? <Section caption="Error" text={result.error} tone="danger" /> : result ? <Section caption="Output" text={pretty(result.output)} /> : null}
        </div>
      )}
    </div>
  );
});

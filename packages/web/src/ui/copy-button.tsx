import { useEffect, useState } from "react";
import { Icon } from "./icons.js";

/**
 * Copy with inline feedback: a check and "Copied" for 1.5 s, announced politely. `compact`
 * shows the icon alone (the label stays the accessible name).
 */
export function CopyButton({ text, label, compact = false }: { text: string | (() => string); label: string; compact?: boolean }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      className={compact ? "icon-btn icon-btn-sm" : "btn btn-sm"}
      aria-label={label}
      title={compact ? label : undefined}
      onClick={() => void navigator.clipboard.writeText(typeof text === "function" ? text() : text).then(() => setCopied(true))}
    >
      <Icon name={copied ? "check" : "copy"} size={14} />
      {compact ? (
        copied && <span className="sr-only" aria-live="polite">Copied</span>
      ) : (
        <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
      )}
    </button>
  );
}

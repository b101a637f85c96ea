import { useEffect, useState } from "react";
import { Icon } from "../../ui/icons.js";

/** Copy with inline feedback: a check and "Copied" for 1.5 s, announced politely. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      className="btn btn-sm"
      aria-label={label}
      onClick={() => void navigator.clipboard.writeText(text).then(() => setCopied(true))}
    >
      <Icon name={copied ? "check" : "copy"} size={14} />
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  );
}

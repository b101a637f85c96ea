import { useEffect, useRef } from "react";
import { trapTab } from "../../ui/focus-trap.js";
import { isMac, keyLabel, SHORTCUTS } from "./shortcuts.js";

/** The "?" list: every shortcut, as this platform writes its keys. */
export function ShortcutList({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const mac = isMac();
  useEffect(() => close.current?.focus(), []);
  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        ref={dialog}
        onKeyDown={(e) => {
          trapTab(e, dialog.current);
          if (e.key === "Escape" || e.key === "?") {
            e.preventDefault();
            onClose();
          }
        }}
      >
        <div className="palette-head">
          <span>Keyboard shortcuts</span>
          <button ref={close} type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
            Close
          </button>
        </div>
        <dl className="shortcuts">
          {SHORTCUTS.map((s) => (
            <div key={s.id} style={{ display: "contents" }}>
              <dt>
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && " "}
                    <kbd>{keyLabel(k, mac)}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{s.does}</dd>
            </div>
          ))}
          <dt>
            <kbd>Esc</kbd>
          </dt>
          <dd>Stop the running turn (in the message box)</dd>
          <dt>
            <kbd>{keyLabel("Mod", mac)}</kbd> <kbd>Enter</kbd>
          </dt>
          <dd>Steer a message into the running turn</dd>
        </dl>
      </div>
    </div>
  );
}

import { useEffect, useRef, type ReactNode } from "react";
import { trapTab } from "../../ui/focus-trap.js";

/** The drawer's id: the header's toggle names it in `aria-controls`. */
export const HISTORY_SHEET_ID = "history-sheet";

/**
 * The history as a sheet over the thread at phone width (a 280 px sheet, at most 85vw wide,
 * laid over the thread and a scrim). It is modal: focus moves in (to the close button, not the search
 * field — that would raise the phone's keyboard), Tab stays inside, Esc or a tap on the
 * scrim closes it, and focus goes back to whatever opened it.
 */
export function HistorySheet({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const sheet = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    // A tap may not focus the button it pressed: then the header's toggle stands for it.
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    sheet.current?.querySelector<HTMLElement>("[data-sheet-initial-focus]")?.focus();
    const onKey = (e: KeyboardEvent) => {
      // A menu, a confirm dialog or an inline rename inside the sheet takes its own Esc first.
      if (e.key !== "Escape" || e.defaultPrevented) return;
      if ((e.target as Element | null)?.closest?.("dialog, [role=menu]")) return;
      e.preventDefault();
      close.current();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      // Back to the opener; if picking a conversation replaced it, to the new page's toggle.
      const back = opener?.isConnected ? opener : document.querySelector<HTMLElement>(`[aria-controls="${HISTORY_SHEET_ID}"]`);
      back?.focus({ preventScroll: true });
    };
  }, []);

  return (
    <>
      <div className="sheet-scrim" aria-hidden="true" onClick={onClose} />
      <div ref={sheet} id={HISTORY_SHEET_ID} className="history-sheet" role="dialog" aria-modal="true" aria-label="Conversation history" onKeyDown={(e) => trapTab(e, sheet.current)}>
        {children}
      </div>
    </>
  );
}

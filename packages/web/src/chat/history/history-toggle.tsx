import { Icon } from "../../ui/icons.js";
import { useIsPhone } from "../../ui/use-media-query.js";
import { HISTORY_SHEET_ID } from "./history-sheet.js";

/**
 * The header button that brings the history back: on a desktop it expands the collapsed
 * column; on a phone it opens the drawer (always shown there: the drawer starts closed).
 */
export function HistoryToggle({ historyOpen, onOpenHistory }: { historyOpen: boolean; onOpenHistory: () => void }) {
  const phone = useIsPhone();
  if (phone)
    return (
      <button
        type="button"
        className="icon-btn history-toggle"
        aria-label="Open history"
        title="Open history"
        aria-haspopup="dialog"
        aria-expanded={historyOpen}
        aria-controls={HISTORY_SHEET_ID}
        onClick={onOpenHistory}
      >
        <Icon name="panelOpen" />
      </button>
    );
  if (historyOpen) return null;
  return (
    <button type="button" className="icon-btn history-toggle" aria-label="Expand history" title="Expand history (Ctrl+B)" onClick={onOpenHistory}>
      <Icon name="panelOpen" />
    </button>
  );
}

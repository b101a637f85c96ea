import { useEffect, useRef } from "react";
import { trapTab } from "../ui/focus-trap.js";
import { Icon } from "../ui/icons.js";
import { APP_MENU_ID, MainNav } from "./main-nav.js";
import "./app-menu-sheet.css";

/**
 * The phone's one menu (issue 22, G): every destination with its icon and its name, in a
 * sheet from the left over a scrim, as the Claude and ChatGPT apps do, instead of a rail of
 * twelve unnamed 30 px icons. It is modal: focus moves to the current page's link, Tab stays
 * inside, Esc, the scrim or the close button close it, and so does going anywhere (a tap on
 * the page already open closes it too). Focus then goes back to the menu button.
 */
export default function AppMenuSheet({
  running,
  locationKey,
  onClose,
  onSignOut,
}: {
  running: number;
  /** The router's location key (the sidebar reads it): a new one means the owner went somewhere. */
  locationKey: string;
  onClose: () => void;
  onSignOut: () => void;
}) {
  const sheet = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const opened = useRef(locationKey);

  useEffect(() => {
    if (locationKey !== opened.current) close.current();
  }, [locationKey]);

  useEffect(() => {
    const target = sheet.current?.querySelector<HTMLElement>('[aria-current="page"]') ?? sheet.current?.querySelector<HTMLElement>("a, button");
    target?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      e.preventDefault();
      close.current();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.querySelector<HTMLElement>(`[aria-controls="${APP_MENU_ID}"]`)?.focus({ preventScroll: true });
    };
  }, []);

  return (
    <>
      <div className="sheet-scrim" aria-hidden="true" onClick={onClose} />
      <div
        ref={sheet}
        id={APP_MENU_ID}
        className="app-menu-sheet"
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        onKeyDown={(e) => trapTab(e, sheet.current)}
        // A tap on a link closes the sheet even when it is the page already open (no navigation).
        onClick={(e) => (e.target as Element).closest("a") && onClose()}
      >
        <div className="app-menu-head">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true" />
            <span className="brand-name">Coffer</span>
          </div>
          <button type="button" className="icon-btn" aria-label="Close menu" title="Close menu" onClick={onClose}>
            <Icon name="x" />
          </button>
        </div>
        <div className="app-menu-body">
          <MainNav running={running} />
        </div>
        <div className="app-menu-foot">
          <button type="button" className="nav-item app-menu-action" onClick={onSignOut}>
            <Icon name="sign-out" />
            <span className="nav-label">Sign out</span>
          </button>
        </div>
      </div>
    </>
  );
}

import { Suspense, useEffect, useRef, useState } from "react";
import { lazyPart } from "../../ui/lazy-part.js";
import { useNavigate } from "react-router";
import { FOCUS_COMPOSER } from "../composer/composer-focus.js";
import { isTyping, matchShortcut } from "./shortcuts.js";

// The two overlays open on a key: their own chunks, fetched on the first press (the first load is on a budget).
const JumpPalette = lazyPart(() => import("./jump-palette.js").then((m) => ({ default: m.JumpPalette })));
const ShortcutList = lazyPart(() => import("./shortcut-list.js").then((m) => ({ default: m.ShortcutList })));

/** Asks the history column to focus its search box (it may have to open first). */
export const FOCUS_SEARCH_EVENT = "coffer:focus-search";

/** The chat's global keys (shortcuts.ts) and the two overlays they open. */
export function ChatShortcuts({ onOpenHistory }: { onOpenHistory: () => void }) {
  const navigate = useNavigate();
  const [overlay, setOverlay] = useState<"palette" | "help" | null>(null);
  // Where the focus was before an overlay opened: it goes back there when the overlay closes.
  const returnTo = useRef<HTMLElement | null>(null);
  const close = () => {
    setOverlay(null);
    // Only when the focus fell to the page with the overlay: a focus the owner (or the next
    // shortcut) already put somewhere else is not taken back a frame later.
    requestAnimationFrame(() => {
      const now = document.activeElement;
      if ((!now || now === document.body) && returnTo.current?.isConnected) returnTo.current.focus();
    });
  };
  const show = (next: "palette" | "help" | null) => {
    if (!next) return close();
    if (!overlay) returnTo.current = document.activeElement as HTMLElement | null;
    setOverlay(next);
  };
  const openHistory = useRef(onOpenHistory);
  openHistory.current = onOpenHistory;
  const showRef = useRef(show);
  showRef.current = show;
  const overlayRef = useRef(overlay);
  overlayRef.current = overlay;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const id = matchShortcut(e, isTyping(e.target));
      if (!id || id === "toggleHistory") return;
      e.preventDefault();
      if (id === "palette") showRef.current(overlayRef.current === "palette" ? null : "palette");
      else if (id === "help") showRef.current("help");
      else if (id === "newChat") {
        setOverlay(null);
        // The new-chat page focuses its composer once it is there (a frame later it may not be yet).
        void navigate("/chat", { state: FOCUS_COMPOSER });
      } else if (id === "focusComposer") document.querySelector<HTMLTextAreaElement>("textarea.composer-input")?.focus();
      else if (id === "focusSearch") {
        openHistory.current();
        // The history may mount on this render: ask once it is there.
        requestAnimationFrame(() => window.dispatchEvent(new Event(FOCUS_SEARCH_EVENT)));
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate]);
  if (overlay === "palette") return <Suspense fallback={null}><JumpPalette onClose={close} /></Suspense>;
  if (overlay === "help") return <Suspense fallback={null}><ShortcutList onClose={close} /></Suspense>;
  return null;
}

import type { KeyboardEvent } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab and Shift+Tab inside a modal (the history sheet, the palette, the shortcut list):
 * from the last focusable thing Tab goes to the first, and back. A modal with one focusable
 * thing keeps the focus on it. Hidden elements (no layout box) are skipped.
 */
export function trapTab(e: KeyboardEvent, container: HTMLElement | null): void {
  if (e.key !== "Tab" || !container) return;
  const all = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
  const first = all[0];
  const last = all[all.length - 1];
  if (!first || !last) {
    // Nothing to move to inside: Tab must still not leave.
    e.preventDefault();
    return;
  }
  const inside = container.contains(document.activeElement);
  if (e.shiftKey && (document.activeElement === first || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}

import { useLocation } from "react-router";

/**
 * A navigation the owner made from the keyboard or by sending (a new chat's first message,
 * Ctrl+Shift+O, the jump palette) carries this in its history state: the page it opens puts the
 * focus in its composer, so what is typed next lands there instead of on <body>.
 */
export const FOCUS_COMPOSER = { focusComposer: true } as const;

/**
 * The location key while the current entry asks for the composer's focus, else null. A key,
 * not a flag: Ctrl+Shift+O on the new-chat page itself makes a new entry, so it asks again.
 */
export function useComposerFocusRequest(): string | null {
  const location = useLocation();
  const state = location.state as { focusComposer?: unknown } | null;
  return state?.focusComposer === true ? location.key : null;
}

import { useCallback, useSyncExternalStore } from "react";

/** The phone layout's breakpoint (docs/decisions.md, "The page at phone size"): the CSS says the same. */
export const PHONE_QUERY = "(max-width: 767px)";

/** Whether a media query matches now; re-renders when it flips (a rotated phone, a resized window). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = matchMedia(query);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => matchMedia(query).matches);
}

/** At phone width the history is a drawer over the thread, and the app rail is a top bar. */
export const useIsPhone = (): boolean => useMediaQuery(PHONE_QUERY);

/** A finger, not a mouse: controls are 44 px (styles/touch.css) and hints name taps, not keys. */
export const TOUCH_QUERY = "(pointer: coarse)";
export const useIsTouch = (): boolean => useMediaQuery(TOUCH_QUERY);

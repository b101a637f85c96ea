import { useEffect, useState } from "react";
import { readStoredChoice, writeStored } from "./stored.js";

const PREFS = ["system", "light", "dark"] as const;
export type ThemePref = (typeof PREFS)[number];
const KEY = "coffer.theme";

/** System follows prefers-color-scheme live; <html data-theme> always holds the resolved theme. */
export function useTheme(): [ThemePref, (p: ThemePref) => void] {
  const [pref, setPref] = useState<ThemePref>(() => readStoredChoice(KEY, PREFS) ?? "system");
  useEffect(() => {
    writeStored(KEY, pref);
    const media = matchMedia("(prefers-color-scheme: dark)");
    const apply = () => {
      document.documentElement.dataset.theme = pref === "system" ? (media.matches ? "dark" : "light") : pref;
    };
    apply();
    media.addEventListener("change", apply);
    return () => media.removeEventListener("change", apply);
  }, [pref]);
  return [pref, setPref];
}

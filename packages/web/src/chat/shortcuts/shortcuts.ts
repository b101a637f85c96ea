/**
 * The page's keyboard shortcuts, in one table: the key handler matches against it and the
 * "?" list shows it, so what is documented is what works. The README lists the same keys.
 */
export type ShortcutId = "palette" | "newChat" | "focusSearch" | "toggleHistory" | "focusComposer" | "help";

export interface Shortcut {
  readonly id: ShortcutId;
  /** How the key reads, with "Mod" for Ctrl (⌘ on a Mac). */
  readonly keys: readonly string[];
  readonly does: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: "palette", keys: ["Mod", "K"], does: "Jump to a conversation" },
  { id: "newChat", keys: ["Mod", "Shift", "O"], does: "New chat" },
  { id: "focusSearch", keys: ["/"], does: "Search conversations" },
  { id: "toggleHistory", keys: ["Mod", "B"], does: "Show or hide the history" },
  { id: "focusComposer", keys: ["Shift", "Esc"], does: "Focus the message box" },
  { id: "help", keys: ["?"], does: "Show these shortcuts" },
];

/** Keys that also work in the composer and other fields; the rest are ignored while typing. */
const WHILE_TYPING: ReadonlySet<ShortcutId> = new Set(["palette", "newChat", "focusComposer"]);

export interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

/**
 * Which shortcut a key press is, or null. `typing`: the focus is in a text field, where plain
 * keys ("/", "?") are text. Mod+B stays with the layout's own handler.
 */
export function matchShortcut(e: KeyLike, typing: boolean): ShortcutId | null {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  let id: ShortcutId | null = null;
  if (mod && !e.shiftKey && !e.altKey && key === "k") id = "palette";
  else if (mod && e.shiftKey && !e.altKey && key === "o") id = "newChat";
  else if (!mod && !e.altKey && e.shiftKey && key === "Escape") id = "focusComposer";
  else if (!mod && !e.altKey && key === "/") id = "focusSearch";
  else if (!mod && !e.altKey && key === "?") id = "help";
  if (id && typing && !WHILE_TYPING.has(id)) return null;
  return id;
}

/** "Mod" as this platform writes it. */
export function keyLabel(key: string, mac: boolean): string {
  if (key === "Mod") return mac ? "⌘" : "Ctrl";
  return key;
}

export const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || (el.tagName === "INPUT" && !["checkbox", "radio", "button"].includes((el as HTMLInputElement).type));
}

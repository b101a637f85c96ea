import { describe, expect, it } from "vitest";
import { matchShortcut } from "./shortcuts.js";

const key = (k: string, mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) => ({
  key: k,
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  shiftKey: mods.shift ?? false,
  altKey: mods.alt ?? false,
});

describe("keyboard shortcuts", () => {
  it("Ctrl+K and ⌘+K open the palette, even while typing", () => {
    expect(matchShortcut(key("k", { ctrl: true }), false)).toBe("palette");
    expect(matchShortcut(key("K", { meta: true }), true)).toBe("palette");
    expect(matchShortcut(key("k", { ctrl: true, alt: true }), false)).toBeNull();
  });

  it("new chat is Mod+Shift+O; focus the composer is Shift+Esc", () => {
    expect(matchShortcut(key("O", { ctrl: true, shift: true }), true)).toBe("newChat");
    expect(matchShortcut(key("o", { ctrl: true }), false)).toBeNull();
    expect(matchShortcut(key("Escape", { shift: true }), true)).toBe("focusComposer");
    expect(matchShortcut(key("Escape"), false)).toBeNull(); // plain Esc stays the composer's Stop
  });

  it("'/' and '?' are shortcuts only outside text fields (there they are text)", () => {
    expect(matchShortcut(key("/"), false)).toBe("focusSearch");
    expect(matchShortcut(key("?", { shift: true }), false)).toBe("help");
    expect(matchShortcut(key("/"), true)).toBeNull();
    expect(matchShortcut(key("?", { shift: true }), true)).toBeNull();
  });

  it("Mod+B is left to the layout's own handler", () => {
    expect(matchShortcut(key("b", { ctrl: true }), false)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { ECHO_MAX_CHARS, echoText } from "./voice-notes.js";

describe("the voice note's echo", () => {
  it("shows a short transcript whole", () => {
    expect(echoText("run the tests")).toBe("🎤 heard: run the tests");
  });

  it("cuts a long one at a word near the limit and says the whole text was sent", () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const echo = echoText(words);
    const shown = echo.slice("🎤 heard: ".length, echo.indexOf("…"));
    expect(shown.length).toBeLessThanOrEqual(ECHO_MAX_CHARS);
    expect(shown.length).toBeGreaterThan(ECHO_MAX_CHARS * 0.8);
    expect(words.startsWith(shown)).toBe(true);
    expect(words[shown.length]).toBe(" ");
    expect(echo).toMatch(new RegExp(`… \\(${[...words].length} characters in all; the whole text was sent\\)$`));
  });

  it("never splits a character made of two code units (emoji), even with no space to cut at", () => {
    const echo = echoText("🎉".repeat(ECHO_MAX_CHARS + 10));
    expect(echo).toContain(`${"🎉".repeat(ECHO_MAX_CHARS)}…`);
    expect(echo).not.toMatch(/\uFFFD/);
  });
});

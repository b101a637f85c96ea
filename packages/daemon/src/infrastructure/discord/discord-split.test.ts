import { describe, expect, it } from "vitest";
import { DISCORD_MESSAGE_LIMIT, splitDiscordText } from "./discord-split.js";

/** Every part opens and closes its fences: an even count of ``` lines. */
function balanced(part: string) {
  return part.split("\n").filter((l) => /^\s*```/.test(l)).length % 2 === 0;
}

describe("splitDiscordText", () => {
  it("keeps a message within the limit whole", () => {
    const text = "a".repeat(DISCORD_MESSAGE_LIMIT);
    expect(splitDiscordText(text)).toEqual([text]);
  });

  it("cuts prose at line boundaries, every part within 2,000 and nothing lost", () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} ${"x".repeat(20)}`);
    const parts = splitDiscordText(lines.join("\n"));
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
    expect(parts.join("\n")).toBe(lines.join("\n"));
  });

  it("closes a code block at a cut and reopens it with its language in the next part", () => {
    const code = Array.from({ length: 200 }, (_, i) => `const v${i} = ${i}; // ${"y".repeat(10)}`);
    const text = `Intro\n\`\`\`ts\n${code.join("\n")}\n\`\`\`\nOutro`;
    const parts = splitDiscordText(text);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      expect(balanced(p), p.slice(-80)).toBe(true);
    }
    for (const p of parts.slice(1, -1)) expect(p.startsWith("```ts\n")).toBe(true);
    // Taking the added fences away gives back the code, line for line, in order.
    const body = parts
      .flatMap((p) => p.split("\n"))
      .filter((l) => !/^```/.test(l));
    expect(body).toEqual(["Intro", ...code, "Outro"]);
  });

  it("hard-cuts one enormous line, inside a code block too, never past the limit", () => {
    const text = "```\n" + "z".repeat(5000) + "\n```";
    const parts = splitDiscordText(text);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      expect(balanced(p)).toBe(true);
    }
    expect(parts.map((p) => p.replace(/^```\n|\n```$/g, "")).join("")).toBe("z".repeat(5000));
  });

  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(1500);
    const parts = splitDiscordText(text);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(DISCORD_MESSAGE_LIMIT);
      expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p)).toBe(false);
    }
    expect(parts.join("")).toBe(text);
  });
});

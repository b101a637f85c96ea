import { expect, test } from "vitest";
import { chunkText } from "./chunking.js";

test("a short text is one chunk; blank text is none", () => {
  expect(chunkText("hello world")).toEqual(["hello world"]);
  expect(chunkText(" \n\n ")).toEqual([]);
});

test("long text is cut at paragraph breaks, chunks overlap, and nothing is lost", () => {
  const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${"word ".repeat(30).trim()}.`);
  const text = paragraphs.join("\n\n");
  const chunks = chunkText(text, { size: 600, overlap: 100 });
  expect(chunks.length).toBeGreaterThan(5);
  for (const c of chunks) expect(c.length).toBeLessThanOrEqual(600);
  // Every paragraph marker appears in some chunk.
  for (let i = 0; i < 40; i++) expect(chunks.some((c) => c.includes(`Paragraph ${i} `))).toBe(true);
  // Consecutive chunks share text (the overlap).
  for (let i = 1; i < chunks.length; i++) {
    const tail = chunks[i - 1]!.slice(-40);
    expect(chunks[i]!.includes(tail.slice(tail.indexOf(" ") + 1, tail.indexOf(" ") + 15))).toBe(true);
  }
});

test("a text with no spaces is still cut and always progresses", () => {
  const chunks = chunkText("x".repeat(5000), { size: 1000, overlap: 200 });
  expect(chunks.length).toBeGreaterThanOrEqual(5);
  expect(chunks.every((c) => c.length <= 1000)).toBe(true);
});

test("chunks never split a word when spaces are near", () => {
  const text = Array.from({ length: 500 }, (_, i) => `token${i}`).join(" ");
  for (const c of chunkText(text, { size: 300, overlap: 60 })) {
    expect(c).toMatch(/^token\d+( token\d+)*$/);
  }
});

test("overlap must be smaller than the size", () => {
  expect(() => chunkText("abc", { size: 10, overlap: 10 })).toThrow(/overlap/);
});

import type { MessageOut } from "@coffer/protocol";
import { describe, expect, it } from "vitest";
import { findSearchMatch } from "./search-match.js";

const msg = (id: string, text: string): MessageOut =>
  ({ id, conversation_id: "c", seq: 0, role: "user", content: [{ type: "text", text }], status: "complete", model_id: null, prompt_tokens: null, completion_tokens: null, created_at: "", stop_reason: null, error: null }) as unknown as MessageOut;

describe("findSearchMatch (stopgap until the index fills match)", () => {
  it("picks the newest message with the most query words and marks each word where it starts", () => {
    const m = findSearchMatch("deploy stag", "Title", [msg("a", "deploy to staging now"), msg("b", "we deploy on fridays"), msg("c", "unrelated")]);
    expect(m.message_id).toBe("a");
    expect(m.snippet).toBe("deploy to staging now");
    expect(m.highlights.map(([s, e]) => m.snippet.slice(s, e))).toEqual(["deploy", "staging"]);
  });

  it("falls back to the title when only the title matched", () => {
    const m = findSearchMatch("release", "Release notes", [msg("a", "nothing here")]);
    expect(m).toEqual({ message_id: null, snippet: "Release notes", highlights: [[0, 7]] });
  });

  it("cuts a long message around the first hit", () => {
    const long = `${"lorem ipsum ".repeat(20)}needle in the middle ${"dolor sit ".repeat(20)}`;
    const m = findSearchMatch("needle", "T", [msg("a", long)]);
    expect(m.snippet.startsWith("…")).toBe(true);
    expect(m.snippet.endsWith("…")).toBe(true);
    const [[s, e]] = m.highlights as [[number, number]];
    expect(m.snippet.slice(s, e)).toBe("needle");
  });
});

import type { Question } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { parseAnswerButton, parseQuestionReply, questionButtons, questionText } from "./question-text.js";

const pick: Question = {
  header: "Deploy",
  text: "Where to?",
  options: [
    { label: "staging", description: "safe" },
    { label: "prod", description: "" },
  ],
  multi_select: false,
  allow_free_text: true,
};
const many: Question = { header: "", text: "Which checks?", options: [{ label: "lint", description: "" }, { label: "test", description: "" }, { label: "e2e", description: "" }], multi_select: true, allow_free_text: false };

describe("a question on the phone", () => {
  test("one single-choice question gets one button per option, each a row; anything else none", () => {
    const id = "0b3f6a8e-6c2d-4f0e-9a51-1d2c3b4a5f60";
    const rows = questionButtons(id, [pick])!;
    expect(rows).toEqual([[{ text: "staging", data: `qa:${id}:0` }], [{ text: "prod", data: `qa:${id}:1` }]]);
    expect(parseAnswerButton(rows[1]![0]!.data)).toEqual({ questionId: id, option: 1 });
    expect(parseAnswerButton("something else")).toBeNull();
    expect(questionButtons(id, [many])).toBeNull();
    expect(questionButtons(id, [pick, pick])).toBeNull();
    // Past Telegram's 64 bytes of callback data: no buttons, the numbers still work.
    expect(questionButtons("x".repeat(70), [pick])).toBeNull();
    expect(questionText([pick], true).split("\n\n").at(-1)).toBe("Tap an option, or reply with a number, or your own words.");
  });

  test("numbered options and how to reply", () => {
    expect(questionText([pick])).toBe("❓ [Deploy] Where to?\n1. staging — safe\n2. prod\n\nReply with a number, or your own words.");
    expect(questionText([many])).toContain("Reply with a number (or several, like 1,3).");
    expect(questionText([pick, many])).toMatch(/^❓ The agent asks 2 questions:\n\nQ1\. \[Deploy\] Where to\?/);
  });

  test("an optional question says how to skip it, and - skips it (only it)", () => {
    const note: Question = { header: "Note", text: "Anything else?", options: [], multi_select: false, allow_free_text: true, optional: true };
    expect(questionText([pick, note])).toContain("Q2. [Note] Anything else? (optional: - skips it)");
    expect(parseQuestionReply([pick, note], "2\n-")).toEqual([{ selected: ["prod"] }, { selected: [] }]);
    expect(parseQuestionReply([pick, note], "2\nby the window")).toEqual([{ selected: ["prod"] }, { selected: [], text: "by the window" }]);
    // A required question's "-" is its answer's own words, not a skip.
    expect(parseQuestionReply([pick, note], "-\n-")).toEqual([{ selected: [], text: "-" }, { selected: [] }]);
  });

  test("numbers become labels; words are free text where allowed", () => {
    expect(parseQuestionReply([pick], " 2 ")).toEqual([{ selected: ["prod"] }]);
    expect(parseQuestionReply([pick], "canary first")).toEqual([{ selected: [], text: "canary first" }]);
    expect(parseQuestionReply([many], "1, 3")).toEqual([{ selected: ["lint", "e2e"] }]);
    expect(parseQuestionReply([pick, many], "1\n2 3")).toEqual([{ selected: ["staging"] }, { selected: ["test", "e2e"] }]);
  });

  test("what does not answer is refused, not guessed", () => {
    expect(parseQuestionReply([pick], "3")).toBeNull();
    expect(parseQuestionReply([pick], "1,2")).toBeNull();
    expect(parseQuestionReply([many], "all of them")).toBeNull();
    expect(parseQuestionReply([pick, many], "1")).toBeNull();
  });
});

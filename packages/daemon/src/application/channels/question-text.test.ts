import type { Question } from "@coffer/protocol";
import { describe, expect, test } from "vitest";
import { parseButton } from "./chat-buttons.js";
import { closedQuestionText, parseQuestionReply, questionButtons, questionMessage, questionText } from "./question-text.js";

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
  test("one single-choice question gets one button per option, each a row; a question with no options none (buttons-question)", () => {
    const id = "0b3f6a8e-6c2d-4f0e-9a51-1d2c3b4a5f60";
    const rows = questionButtons(id, [pick])!;
    expect(rows).toEqual([[{ text: "staging", data: `qa:${id}:0` }], [{ text: "prod", data: `qa:${id}:1` }]]);
    expect(parseButton(rows[1]![0]!.data)).toEqual({ kind: "answer", questionId: id, option: 1 });
    expect(parseButton("something else")).toBeNull();
    expect(questionButtons(id, [{ header: "", text: "Why?", options: [], multi_select: false, allow_free_text: true }])).toBeNull();
    // One question of several without options: the message is answered typed, as a whole.
    expect(questionButtons(id, [pick, { header: "", text: "Why?", options: [], multi_select: false, allow_free_text: true }])).toBeNull();
    // Past Telegram's 64 bytes of callback data: no buttons, the numbers still work.
    expect(questionButtons("x".repeat(70), [pick])).toBeNull();
    expect(questionText([pick], true).split("\n\n").at(-1)).toBe("Tap an option, or reply with a number, or your own words.");
  });

  test("a multi-select gets toggles showing ✓ on the picks and a Send row; its text lists the picks (buttons-question)", () => {
    const id = "q1";
    expect(questionButtons(id, [many])).toEqual([
      [{ text: "lint", data: "qt:q1:0" }],
      [{ text: "test", data: "qt:q1:1" }],
      [{ text: "e2e", data: "qt:q1:2" }],
      [{ text: "Send", data: "qs:q1" }],
    ]);
    const picked = questionMessage(id, [many], new Set([0, 2]));
    expect(picked.buttons!.map((row) => row.map((b) => b.text))).toEqual([["✓ lint"], ["test"], ["✓ e2e"], ["Send (2)"]]);
    expect(picked.text.split("\n\n").slice(-2)).toEqual(["Picked: lint, e2e", "Tap options to pick them, then Send; or reply with a number (or several, like 1,3)."]);
    expect(questionMessage(id, [many]).text).toContain("Picked: nothing yet");
    expect(parseButton("qt:q1:2")).toEqual({ kind: "toggle", questionId: "q1", option: 2 });
    expect(parseButton("qs:q1")).toEqual({ kind: "send", questionId: "q1" });
  });

  test("a yes/no prompt is a single choice: two buttons; many options pack into Discord's five rows, too many get none", () => {
    const yesNo: Question = { header: "Allow", text: "Run the migration?", options: [{ label: "Yes", description: "" }, { label: "No", description: "" }], multi_select: false, allow_free_text: false };
    expect(questionButtons("q", [yesNo])!.map((row) => row.map((b) => b.text))).toEqual([["Yes"], ["No"]]);
    const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `o${i}`, description: "" }));
    const twelve = questionButtons("q", [{ ...yesNo, options: options(12) }])!;
    expect(twelve).toHaveLength(4);
    expect(twelve.flat()).toHaveLength(12);
    // A multi-select keeps its last row for Send.
    expect(questionButtons("q", [{ ...yesNo, multi_select: true, options: options(9) }])!).toHaveLength(4);
    expect(questionButtons("q", [{ ...yesNo, options: options(26) }])).toBeNull();
  });

  // The defect: several questions in one message (or an optional one) had no buttons at all.
  test("several questions: each one's options as numbered toggles, Skip on an optional one, Send counting the answered (buttons-question)", () => {
    const optional: Question = { ...many, text: "Which extra checks?", optional: true };
    const rows = questionButtons("q", [pick, optional])!;
    expect(rows.map((row) => row.map((b) => b.text))).toEqual([["Q1 · staging", "Q1 · prod"], ["Q2 · lint", "Q2 · test", "Q2 · e2e", "Q2 · Skip"], ["Send (0/2)"]]);
    expect(rows.flat().map((b) => b.data)).toEqual(["qt:q:0", "qt:q:1", "qt:q:100", "qt:q:101", "qt:q:102", "qt:q:199", "qs:q"]);
    const picked = questionMessage("q", [pick, optional], new Set([1, 199]));
    expect(picked.buttons!.map((row) => row.map((b) => b.text))).toEqual([["Q1 · staging", "✓ Q1 · prod"], ["Q2 · lint", "Q2 · test", "Q2 · e2e", "✓ Q2 · Skip"], ["Send (2/2)"]]);
    expect(picked.text.split("\n\n").slice(-2)).toEqual([
      "Picked: Q1: prod · Q2: skipped",
      "Tap an option for each question, then Send; or reply with one line per question, in order (a number, or several like 1,3 where allowed).",
    ]);
    // Untapped, the typed way is still said the way it always was.
    expect(questionText([pick, optional]).split("\n\n").at(-1)).toBe("Reply with one line per question, in order (a number, or several like 1,3 where allowed).");
    // More rows than Discord's five (Send included): typed only.
    const six = Array.from({ length: 6 }, (_, i) => ({ label: `o${i}`, description: "" }));
    expect(questionButtons("q", [{ ...pick, options: six }, { ...pick, options: six }])).toHaveLength(5);
    expect(questionButtons("q", [{ ...pick, options: six }, { ...pick, options: six }, pick])).toBeNull();
  });

  test("an optional single choice gets a Skip button that answers with nothing", () => {
    const rows = questionButtons("q", [{ ...pick, optional: true }])!;
    expect(rows.map((row) => row.map((b) => b.text))).toEqual([["staging"], ["prod"], ["Skip"]]);
    expect(parseButton(rows[2]![0]!.data)).toEqual({ kind: "answer", questionId: "q", option: 99 });
  });

  test("a closed question keeps what was asked and says who answered and what, without buttons (buttons-withdrawn)", () => {
    expect(closedQuestionText([pick], [{ selected: ["prod"] }], "web", "telegram")).toBe("❓ [Deploy] Where to?\n1. staging — safe\n2. prod\n\n☑️ Answered from the page: prod");
    expect(closedQuestionText([pick], [{ selected: [], text: "qa" }], "cli", "telegram").split("\n\n").at(-1)).toBe("☑️ Answered from the CLI: “qa”");
    expect(closedQuestionText([pick], [{ selected: ["staging"] }], "telegram", "telegram").split("\n\n").at(-1)).toBe("✅ Answered from Telegram: staging");
    expect(closedQuestionText([pick], null, null, "telegram").split("\n\n").at(-1)).toBe("⏹ Closed without an answer: its turn ended.");
    const long = closedQuestionText([pick], [{ selected: [], text: "x".repeat(5000) }], "web", "telegram");
    expect(long.length).toBeLessThan(400);
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

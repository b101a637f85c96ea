import type { ChatEvent, Question } from "@coffer/protocol";
import { describe, expect, it } from "vitest";
import { AnswerInvalid } from "../../domain/question-errors.js";
import { TurnQuestions } from "./turn-questions.js";

const field = (header: string, optional?: boolean): Question => ({
  header,
  text: "Booking a table",
  options: [],
  multi_select: false,
  allow_free_text: true,
  ...(optional === undefined ? {} : { optional }),
});

function asking(questions: Question[]) {
  const events: ChatEvent[] = [];
  let n = 0;
  const turn = new TurnQuestions("c1", (e) => events.push(e), () => `q${++n}`);
  const answered = turn.ask(questions, new AbortController().signal);
  return { turn, answered, qid: "q1" };
}

describe("TurnQuestions answer validation", () => {
  it("lets an optional question be left empty: no option, empty or blank text", async () => {
    const { turn, answered, qid } = asking([field("Table size"), field("Note", true)]);
    turn.answer(qid, [{ selected: [], text: "two" }, { selected: [], text: "" }]);
    await expect(answered).resolves.toEqual([{ selected: [], text: "two" }, { selected: [], text: "" }]);
  });

  it("refuses an empty required question with an error naming it, and keeps the question open", async () => {
    const { turn, answered, qid } = asking([field("Table size"), field("Note", true)]);
    const refuse = () => turn.answer(qid, [{ selected: [], text: "  " }, { selected: [], text: "by the window" }]);
    expect(refuse).toThrow(AnswerInvalid);
    expect(refuse).toThrow("answer 1 (Table size) is required: choose an option or write an answer");
    // A question without `optional` (every agent's own questions) still needs an answer.
    expect(turn.list()[0]!.state).toBe("open");
    turn.answer(qid, [{ selected: [], text: "four" }, { selected: [] }]);
    await expect(answered).resolves.toHaveLength(2);
  });

  it("names an unheaded required question by its place alone", () => {
    const { turn, qid } = asking([field("")]);
    expect(() => turn.answer(qid, [{ selected: [] }])).toThrow(/^answer 1 is required/);
  });
});

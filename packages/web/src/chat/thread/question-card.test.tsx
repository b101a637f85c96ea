import type { Question } from "@coffer/protocol";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { acceptance } from "../../../test/acceptance.js";
import { AnsweredQuestion } from "./answered-question.js";
import { QuestionCard } from "./question-card.js";

const PICK: Question = {
  header: "Colour",
  text: "Which colour?",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
  multi_select: false,
  allow_free_text: true,
};
const MANY: Question = { ...PICK, header: "Extras", text: "Which extras?", multi_select: true, allow_free_text: false };

describe("QuestionCard", () => {
  acceptance("014-owner-in-the-loop", "the page's question card answers with the keyboard alone (options, multi-select, own words)", async () => {
    const onAnswer = vi.fn(async () => undefined);
    render(<QuestionCard questionId="q1" questions={[PICK, MANY]} onAnswer={onAnswer} />);
    expect(screen.getByRole("status")).toHaveTextContent("Waiting for you");
    const send = screen.getByRole("button", { name: "Send answer" });
    expect(send).toBeDisabled();
    // Tab order: Red, Blue, own words (Q1), Red, Blue (Q2), Send.
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toHaveAccessibleName(/^Red/);
    await user.keyboard(" ");
    await user.tab();
    await user.keyboard("{Enter}"); // Blue replaces Red: one option only
    await user.tab();
    await user.keyboard("navy");
    await user.tab();
    await user.keyboard(" ");
    await user.tab();
    await user.keyboard(" "); // multi-select keeps both
    const pressed = screen.getAllByRole("button", { pressed: true }).map((b) => b.textContent);
    expect(pressed).toEqual(["Bluecool", "Redwarm", "Bluecool"]);
    await user.tab();
    expect(document.activeElement).toBe(send);
    await user.keyboard("{Enter}");
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith([{ selected: ["Blue"], text: "navy" }, { selected: ["Red", "Blue"] }]);
  });

  it("sends with an optional question left empty, marked (optional); a required one still holds Send back", async () => {
    const onAnswer = vi.fn(async () => undefined);
    const note: Question = { header: "Note", text: "Anything else?", options: [], multi_select: false, allow_free_text: true, optional: true };
    render(<QuestionCard questionId="q1" questions={[PICK, note]} onAnswer={onAnswer} />);
    expect(screen.getByRole("group", { name: /Anything else\? \(optional\)/ })).toBeInTheDocument();
    const send = screen.getByRole("button", { name: "Send answer" });
    expect(send).toBeDisabled(); // Colour is required
    await userEvent.click(screen.getByRole("button", { name: /^Red/ }));
    expect(send).toBeEnabled();
    await userEvent.click(send);
    expect(onAnswer).toHaveBeenCalledWith([{ selected: ["Red"] }, { selected: [] }]);
  });

  it("shows why an answer was refused and lets the owner try again", async () => {
    const onAnswer = vi.fn(async () => {
      throw new Error("this question was already answered from cli: Red");
    });
    render(<QuestionCard questionId="q1" questions={[PICK]} onAnswer={onAnswer} />);
    await userEvent.type(screen.getByRole("textbox", { name: "Your own answer: Which colour?" }), "green");
    await userEvent.click(screen.getByRole("button", { name: "Send answer" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("already answered from cli: Red");
    expect(onAnswer).toHaveBeenCalledWith([{ selected: [], text: "green" }]);
    expect(screen.getByRole("button", { name: "Send answer" })).toBeEnabled();
  });

  acceptance("022-screens-true", "a page or phone whose answer lost the race is told which answer won, and a single-choice question answers in one tap", async () => {
    // One tap: a single single-choice question sends the option at once, no Send needed.
    const onAnswer = vi.fn(async () => undefined);
    const { unmount } = render(<QuestionCard questionId="q1" questions={[{ ...PICK, allow_free_text: false }]} onAnswer={onAnswer} />);
    expect(screen.queryByRole("button", { name: "Send answer" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: /^Blue/ }));
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer).toHaveBeenCalledWith([{ selected: ["Blue"] }]);
    unmount();
    // Lost the race: the daemon's 409 says which answer won, in the card.
    const loser = vi.fn(async () => {
      throw new Error("Answered from Telegram: Red");
    });
    render(<QuestionCard questionId="q2" questions={[PICK]} onAnswer={loser} />);
    await userEvent.click(screen.getByRole("button", { name: /^Blue/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Answered from Telegram: Red");
  });

  it("the answered question stays: what was asked, the answer, from where, and a note when this page lost", () => {
    const block = { type: "question" as const, question_id: "q1", questions: [PICK], state: "answered" as const, answers: [{ selected: ["Blue"], text: "navy" }], by: "telegram", tool_use_id: null };
    render(<AnsweredQuestion block={block} lost />);
    const card = screen.getByRole("region", { name: "The agent asked you" });
    expect(card).toHaveTextContent("Which colour?");
    expect(card).toHaveTextContent("Blue, “navy”");
    expect(card).toHaveTextContent("You answered from Telegram");
    expect(card).toHaveTextContent("Your answer here was not sent: Telegram answered first.");
  });
});

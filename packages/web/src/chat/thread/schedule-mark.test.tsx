import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { UserBubble } from "./messages.js";

describe("the schedule mark", () => {
  it("a message a schedule sent shows a clock before its text, labelled 'scheduled', naming the schedule on hover", () => {
    render(<UserBubble text="triage the failing tests" schedule={{ name: "morning triage" }} />);
    const mark = screen.getByRole("img", { name: "scheduled" });
    expect(mark.querySelector("svg")).not.toBeNull();
    expect(mark).toHaveAttribute("title", "Sent by the schedule “morning triage”");
    const bubble = mark.parentElement!;
    expect(bubble).toHaveTextContent(/^triage the failing tests$/);
    expect(bubble.firstChild).toBe(mark);
  });

  it("a typed message has no clock", () => {
    render(<UserBubble text="typed" />);
    expect(screen.queryByRole("img", { name: "scheduled" })).toBeNull();
  });
});

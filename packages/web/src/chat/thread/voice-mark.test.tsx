import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { UserBubble } from "./messages.js";

describe("the voice mark", () => {
  it("a message that came from a voice note shows the 🎤 mark (a mic icon), labelled for a screen reader, before its transcript", () => {
    render(<UserBubble text="please run the tests" voice />);
    const mark = screen.getByRole("img", { name: "voice note" });
    expect(mark.querySelector("svg")).not.toBeNull();
    const bubble = mark.parentElement!;
    expect(bubble).toHaveTextContent(/^please run the tests$/);
    expect(bubble.firstChild).toBe(mark);
  });

  it("a typed message has no mark", () => {
    render(<UserBubble text="typed" />);
    expect(screen.queryByRole("img", { name: "voice note" })).toBeNull();
  });
});

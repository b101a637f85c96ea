import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { UserBubble } from "./messages.js";
import { lastExchange, replyMarkdown, ThreadActionsContext } from "./thread-actions.js";

describe("reply actions", () => {
  it("Copy takes the reply's markdown source, its text parts around tool calls", () => {
    expect(
      replyMarkdown([
        { type: "text", text: "**Done.** Ran:\n" },
        { type: "tool_use", tool_use_id: "t", tool_name: "Bash", tool_input: { command: "ls" } },
        { type: "tool_result", tool_use_id: "t", tool_name: "Bash", output: "a\nb", error: null },
        { type: "text", text: "- a\n- b" },
      ]),
    ).toBe("**Done.** Ran:\n\n- a\n- b");
  });

  it("only the reply after the owner's last message can be retried, with that message's text", () => {
    expect(lastExchange([{ role: "user", id: "u1", text: "one" }, { role: "assistant", id: "a1", text: "" }])).toEqual({ lastReplyId: "a1", lastUserText: "one" });
    // A newer owner message without a reply yet: nothing to retry.
    expect(lastExchange([{ role: "assistant", id: "a1", text: "" }, { role: "user", id: "u2", text: "two" }]).lastReplyId).toBeNull();
  });
});

describe("edit and resend", () => {
  function renderBubble() {
    const resend = vi.fn();
    render(
      <ThreadActionsContext.Provider value={{ resend, lastReplyId: null, lastUserText: null }}>
        <UserBubble text="deploy to staging" editable />
      </ThreadActionsContext.Provider>,
    );
    return resend;
  }

  it("sends the edited text as a new message and leaves the original as it was", async () => {
    const resend = renderBubble();
    await userEvent.click(screen.getByRole("button", { name: "Edit and send as a new message" }));
    const box = screen.getByRole("textbox", { name: "Edit message" });
    expect(box).toHaveValue("deploy to staging");
    await userEvent.clear(box);
    await userEvent.type(box, "deploy to production{Enter}");
    expect(resend).toHaveBeenCalledExactlyOnceWith("deploy to production");
    expect(screen.queryByRole("textbox", { name: "Edit message" })).toBeNull();
    expect(screen.getByText("deploy to staging")).toBeInTheDocument();
  });

  it("Esc cancels without sending; Shift+Enter is a new line", async () => {
    const resend = renderBubble();
    await userEvent.click(screen.getByRole("button", { name: "Edit and send as a new message" }));
    const box = screen.getByRole("textbox", { name: "Edit message" });
    await userEvent.type(box, "{Shift>}{Enter}{/Shift}more");
    expect(box).toHaveValue("deploy to staging\nmore");
    await userEvent.keyboard("{Escape}");
    expect(resend).not.toHaveBeenCalled();
    expect(screen.getByText("deploy to staging")).toBeInTheDocument();
  });

  it("without a thread to send into (an unsent echo) there is no edit button", () => {
    render(<UserBubble text="x" editable />);
    expect(screen.queryByRole("button", { name: /Edit/ })).toBeNull();
  });
});

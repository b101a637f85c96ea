import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Composer, type ComposerProps } from "./composer.js";

function setup(props: Partial<ComposerProps> = {}) {
  const onSend = vi.fn();
  const onStop = vi.fn();
  const utils = render(<Composer agentName="Claude Code" running={false} stopping={false} paused={false} onSend={onSend} onStop={onStop} {...props} />);
  const box = screen.getByRole("textbox", { name: "Message Claude Code" });
  return { ...utils, onSend, onStop, box };
}

describe("Composer", () => {
  it("Enter sends, Shift+Enter adds a line", async () => {
    const { box, onSend } = setup();
    await userEvent.type(box, "first line{Shift>}{Enter}{/Shift}second");
    expect(box).toHaveValue("first line\nsecond");
    await userEvent.keyboard("{Enter}");
    expect(onSend).toHaveBeenCalledWith("first line\nsecond", []);
    expect(box).toHaveValue("");
  });

  it("never sends on the Enter that ends an IME composition", () => {
    const { box, onSend } = setup();
    fireEvent.change(box, { target: { value: "にほん" } });
    fireEvent.keyDown(box, { key: "Enter", keyCode: 229 });
    fireEvent.keyDown(box, { key: "Enter", isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
  });

  it("an empty idle composer has a disabled Send", () => {
    setup();
    expect(screen.getByRole("button", { name: "Send" })).toHaveAttribute("aria-disabled", "true");
  });

  it("never locks while a turn runs: empty shows Stop, typed text shows Queue with Stop beside it", async () => {
    const { box, onSend, onStop } = setup({ running: true });
    expect(box).toBeEnabled();
    await userEvent.click(screen.getByRole("button", { name: "Stop" }));
    expect(onStop).toHaveBeenCalledTimes(1);
    await userEvent.type(box, "next");
    expect(screen.getByText("Runs after the current turn")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Stop" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Queue message" }));
    expect(onSend).toHaveBeenCalledWith("next", []);
  });

  it("Esc in an empty composer stops the running turn", async () => {
    const { box, onStop } = setup({ running: true });
    box.focus();
    await userEvent.keyboard("{Escape}");
    expect(onStop).toHaveBeenCalled();
  });

  it("↑ in an empty composer pulls the last queued message back; a pulled text replaces the box", async () => {
    const onPullLast = vi.fn();
    const { box, rerender, onSend, onStop } = setup({ running: true, onPullLast });
    box.focus();
    await userEvent.keyboard("{ArrowUp}");
    expect(onPullLast).toHaveBeenCalled();
    rerender(<Composer agentName="Claude Code" running stopping={false} paused={false} onSend={onSend} onStop={onStop} pull={{ text: "queued text", nonce: 1 }} />);
    expect(box).toHaveValue("queued text");
  });

  it("shows a spinner while stopping", () => {
    setup({ running: true, stopping: true });
    expect(screen.getByRole("button", { name: "Stopping" })).toBeDisabled();
  });

  it("while a turn runs: Enter queues, Ctrl/Cmd+Enter or the Steer button steers", async () => {
    const onSteer = vi.fn();
    const { box, onSend } = setup({ running: true, onSteer });
    await userEvent.type(box, "queue me{Enter}");
    expect(onSend).toHaveBeenCalledWith("queue me", []);
    expect(onSteer).not.toHaveBeenCalled();
    await userEvent.type(box, "steer me{Control>}{Enter}{/Control}");
    expect(onSteer).toHaveBeenCalledWith("steer me");
    await userEvent.type(box, "by meta{Meta>}{Enter}{/Meta}");
    expect(onSteer).toHaveBeenLastCalledWith("by meta");
    await userEvent.type(box, "by button");
    expect(screen.getByText(/Ctrl\/⌘\+Enter steers it into this turn/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Steer" }));
    expect(onSteer).toHaveBeenLastCalledWith("by button");
    expect(box).toHaveValue("");
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("idle: no Steer action, and Ctrl+Enter is a plain send", async () => {
    const onSteer = vi.fn();
    const { box, onSend } = setup({ running: false, onSteer });
    await userEvent.type(box, "hello");
    expect(screen.queryByRole("button", { name: "Steer" })).toBeNull();
    await userEvent.keyboard("{Control>}{Enter}{/Control}");
    expect(onSend).toHaveBeenCalledWith("hello", []);
    expect(onSteer).not.toHaveBeenCalled();
  });
});

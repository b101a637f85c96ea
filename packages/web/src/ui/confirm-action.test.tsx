import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ConfirmAction } from "./confirm-action.js";

function renderAction(onConfirm: () => void, name = "openai-key") {
  return render(
    <ConfirmAction
      label="Delete"
      ariaLabel={`Delete ${name}`}
      title={`Delete '${name}'?`}
      body="Connections that refer to it stop working."
      confirmLabel="Delete credential"
      onConfirm={onConfirm}
    />,
  );
}

const dialogOf = (title: string) => screen.getByText(title).closest("dialog")!;

describe("ConfirmAction", () => {
  it("asks before it acts: nothing runs until the dialog's confirm button", async () => {
    const onConfirm = vi.fn();
    renderAction(onConfirm);
    expect(document.querySelector("dialog")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Delete openai-key" }));
    expect(onConfirm).not.toHaveBeenCalled();
    const dialog = dialogOf("Delete 'openai-key'?");
    expect(dialog.open).toBe(true);
    expect(dialog).toHaveTextContent("Connections that refer to it stop working.");
    await userEvent.click(screen.getByRole("button", { name: "Delete credential" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(dialog.open).toBe(false);
  });

  it("Cancel and Esc close the dialog without acting; it can be asked again", async () => {
    const onConfirm = vi.fn();
    renderAction(onConfirm);
    const trigger = screen.getByRole("button", { name: "Delete openai-key" });
    await userEvent.click(trigger);
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    const dialog = dialogOf("Delete 'openai-key'?");
    expect(dialog.open).toBe(false);
    await userEvent.click(trigger);
    expect(dialog.open).toBe(true);
    fireEvent(dialog, new Event("cancel", { cancelable: true }));
    expect(dialog.open).toBe(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("two actions on one page each name their own dialog", async () => {
    const first = vi.fn();
    const second = vi.fn();
    renderAction(first, "a-key");
    renderAction(second, "b-key");
    await userEvent.click(screen.getByRole("button", { name: "Delete a-key" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete credential" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete b-key" }));
    const dialogs = [...document.querySelectorAll("dialog")];
    expect(dialogs).toHaveLength(2);
    const ids = dialogs.map((d) => d.getAttribute("aria-labelledby"));
    expect(new Set(ids).size).toBe(2);
    expect(document.getElementById(ids[1]!)).toHaveTextContent("Delete 'b-key'?");
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).not.toHaveBeenCalled();
  });
});

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { RetentionForm } from "./retention-form.js";

const defaults = { archive_after_days: 7, delete_after_days: 30 };
const archive = () => screen.getByRole("spinbutton", { name: "Archive conversations after" });
const del = () => screen.getByRole("spinbutton", { name: "Delete archived conversations after" });
const forever = (which: RegExp) => screen.getByRole("checkbox", { name: which });

describe("RetentionForm", () => {
  it("keep-forever sends null for that window only; the untouched one is left out", async () => {
    const onSave = vi.fn(async () => undefined);
    render(<RetentionForm value={defaults} onSave={onSave} />);
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    await userEvent.click(forever(/delete archived/));
    expect(del()).toBeDisabled();
    expect(screen.getByText("Kept forever")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({ delete_after_days: null });
  });

  it("shows a keep-forever window as checked and turns it back on with a number of days", async () => {
    const onSave = vi.fn(async () => undefined);
    render(<RetentionForm value={{ archive_after_days: null, delete_after_days: 30 }} onSave={onSave} />);
    expect(forever(/archive conversations/)).toBeChecked();
    expect(archive()).toBeDisabled();
    await userEvent.click(forever(/archive conversations/));
    expect(archive()).toHaveValue(7);
    await userEvent.clear(archive());
    await userEvent.type(archive(), "21");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith({ archive_after_days: 21 });
  });

  it("refuses days outside 1..36500 inline", async () => {
    const onSave = vi.fn(async () => undefined);
    render(<RetentionForm value={defaults} onSave={onSave} />);
    await userEvent.clear(archive());
    await userEvent.type(archive(), "0");
    expect(archive()).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("A whole number of days from 1 to 36,500.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  });
});

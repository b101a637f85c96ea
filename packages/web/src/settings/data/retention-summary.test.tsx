import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { retentionSentence, RetentionSummary } from "./retention-summary.js";

describe("RetentionSummary", () => {
  it("says the default plainly and keeps conversations forever in one click", async () => {
    const onSave = vi.fn(async () => undefined);
    render(<RetentionSummary value={{ archive_after_days: 7, delete_after_days: 30 }} onSave={onSave} />);
    expect(screen.getByRole("status", { name: "Retention now" })).toHaveTextContent(
      "Conversations idle for 7 days move to the archive; archived ones are deleted 30 days later.",
    );
    await userEvent.click(screen.getByRole("button", { name: "Keep conversations forever" }));
    expect(onSave).toHaveBeenCalledWith({ delete_after_days: null });
  });

  it("offers nothing to click once nothing is deleted, and says so", () => {
    render(<RetentionSummary value={{ archive_after_days: 7, delete_after_days: null }} onSave={vi.fn()} />);
    expect(screen.getByRole("status", { name: "Retention now" })).toHaveTextContent("archived ones are kept forever.");
    expect(screen.queryByRole("button", { name: "Keep conversations forever" })).not.toBeInTheDocument();
  });

  it("uses the singular for one day", () => {
    expect(retentionSentence({ archive_after_days: 1, delete_after_days: 1 })).toBe("Conversations idle for 1 day move to the archive; archived ones are deleted 1 day later.");
    expect(retentionSentence({ archive_after_days: null, delete_after_days: null })).toBe(
      "Conversations are never archived by themselves; archived ones are kept forever.",
    );
  });
});

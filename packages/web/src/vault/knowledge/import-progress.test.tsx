import type { ImportJobOut } from "@coffer/protocol";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ImportProgress } from "./import-progress.js";

const job = (over: Partial<ImportJobOut>): ImportJobOut => ({
  id: "j1",
  kb_id: "kb1",
  path: "/notes",
  status: "running",
  done: 0,
  total: 0,
  imported: 0,
  skipped: [],
  error: null,
  started_at: "2026-01-01T00:00:00.000Z",
  finished_at: null,
  ...over,
});

describe("ImportProgress", () => {
  it("shows done/total on a progress bar while running, without guessing before the scan ends", () => {
    const { rerender } = render(<ImportProgress job={job({})} />);
    const bar = screen.getByRole("progressbar", { name: "Importing /notes" });
    expect(bar).not.toHaveAttribute("aria-valuenow");
    expect(bar).toHaveAttribute("aria-valuetext", "0 of ? files");
    expect(screen.getByText("Importing…")).toBeInTheDocument();
    rerender(<ImportProgress job={job({ done: 3, total: 12, imported: 3 })} />);
    expect(bar).toHaveAttribute("aria-valuenow", "3");
    expect(bar).toHaveAttribute("aria-valuemax", "12");
    expect(screen.getByText("3 / 12 files")).toBeInTheDocument();
    expect(bar.firstElementChild).toHaveStyle({ width: "25%" });
  });

  it("counts one file in the singular", () => {
    render(<ImportProgress job={job({ status: "done", done: 1, total: 1, imported: 1 })} />);
    expect(screen.getByText("1 / 1 file")).toBeInTheDocument();
    expect(screen.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "1 of 1 file");
  });

  it("lists every skipped file with its reason once finished", () => {
    const skipped = [
      { filename: "logo.png", reason: "not a text document (.png)" },
      { filename: "big.md", reason: "larger than 5 MB" },
    ];
    render(<ImportProgress job={job({ status: "done", done: 12, total: 12, imported: 10, skipped })} />);
    expect(screen.getByText("Import finished")).toBeInTheDocument();
    expect(screen.getByText("10 imported, 2 skipped")).toBeInTheDocument();
    const list = screen.getByRole("list", { name: "Skipped files" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "logo.png — not a text document (.png)",
      "big.md — larger than 5 MB",
    ]);
  });

  it("says a failed import failed, with the daemon's reason", () => {
    render(<ImportProgress job={job({ status: "failed", error: "the folder does not exist" })} />);
    expect(screen.getByText("Import failed")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("the folder does not exist");
  });
});

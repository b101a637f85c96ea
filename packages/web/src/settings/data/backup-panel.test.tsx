import type { BackupOut, BackupStatusOut } from "@coffer/protocol";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { acceptance } from "../../../test/acceptance.js";
import { formatTime } from "../../ui/page-kit.js";
import { BackupPanel, fileSize, scheduleText } from "./backup-panel.js";

const last: BackupOut = { path: "/home/o/.coffer/backups/coffer-backup-20261204-090000-000.tar.gz", size_bytes: 2_400_000, created_at: Date.UTC(2026, 11, 4, 9), key_included: true };
const status: BackupStatusOut = {
  folder: "/home/o/.coffer/backups",
  keep: 7,
  every_hours: 24,
  last,
  next_due_at: Date.UTC(2026, 11, 5, 9),
  running: false,
  last_error: null,
};
const fact = (name: string) => screen.getByText(name, { selector: "dt" }).parentElement!;

describe("BackupPanel", () => {
  acceptance("024-never-lose", "Settings → Data shows the last snapshot (when, where, size), the next one, and Back up now with its result", async () => {
    let finish!: (b: BackupOut) => void;
    const onBackUp = vi.fn(() => new Promise<BackupOut>((resolve) => (finish = resolve)));
    render(<BackupPanel status={status} onBackUp={onBackUp} />);
    const lastFact = fact("Last snapshot");
    expect(lastFact).toHaveTextContent(formatTime(new Date(last.created_at).toISOString()));
    expect(lastFact).toHaveTextContent("2.3 MB");
    expect(within(lastFact).getByText(last.path)).toHaveClass("mono");
    expect(fact("Next snapshot")).toHaveTextContent(formatTime(new Date(status.next_due_at!).toISOString()));
    expect(fact("Folder")).toHaveTextContent("/home/o/.coffer/backups");
    expect(fact("Folder")).toHaveTextContent("Every 24 hours, keeping the newest 7.");

    // Progress while it runs (one click, no double backups), then the result.
    await userEvent.click(screen.getByRole("button", { name: "Back up now" }));
    expect(onBackUp).toHaveBeenCalledTimes(1);
    const busy = screen.getByRole("button", { name: "Backing up…" });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute("aria-busy", "true");
    finish({ ...last, size_bytes: 9_000 });
    expect(await screen.findByRole("status")).toHaveTextContent("Backed up (9 KB).");
    expect(screen.getByRole("button", { name: "Back up now" })).toBeEnabled();
  });

  it("says when there is no snapshot yet, no schedule, and why the last scheduled one failed", () => {
    render(<BackupPanel status={{ ...status, last: null, next_due_at: null, every_hours: 0, keep: 0, last_error: { message: "cannot write a backup to /mnt/x: it cannot be written there (EACCES)", at: 1 } }} onBackUp={vi.fn()} />);
    expect(fact("Last snapshot")).toHaveTextContent("None yet");
    expect(fact("Next snapshot")).toHaveTextContent("Not scheduled");
    expect(fact("Folder")).toHaveTextContent("No schedule (COFFER_BACKUP_EVERY_HOURS=0), keeping them all.");
    expect(screen.getByRole("status", { name: "Last scheduled snapshot" })).toHaveTextContent("The last scheduled snapshot failed: cannot write a backup to /mnt/x");
  });

  it("shows a failed Back up now inline and lets it be tried again", async () => {
    const onBackUp = vi.fn(async () => {
      throw new Error("the disk holding the data dir is full; the backup was not written. Free some space and retry");
    });
    render(<BackupPanel status={status} onBackUp={onBackUp} />);
    await userEvent.click(screen.getByRole("button", { name: "Back up now" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("the disk holding the data dir is full");
    expect(screen.getByRole("button", { name: "Back up now" })).toBeEnabled();
  });

  it("words sizes and schedules", () => {
    expect(fileSize(100)).toBe("1 KB");
    expect(fileSize(5 * 1024 ** 3)).toBe("5.0 GB");
    expect(scheduleText({ every_hours: 1, keep: 1 })).toBe("every 1 hour, keeping the newest 1");
  });
});

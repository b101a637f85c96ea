import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { QueueTray, type QueueTrayProps } from "./queue-tray.js";

const pending = [
  { id: "p1", text: "first", truncated: false, length: 5 },
  { id: "p2", text: "second", truncated: false, length: 6 },
  { id: "p3", text: "third", truncated: false, length: 5 },
];

function setup(props: Partial<QueueTrayProps> = {}) {
  const on = { onEdit: vi.fn(), onRemove: vi.fn(), onMove: vi.fn(), onResume: vi.fn(), onClear: vi.fn() };
  render(<QueueTray pending={pending} paused={false} {...on} {...props} />);
  return on;
}

describe("QueueTray", () => {
  it("renders one row per pending item in a named list", () => {
    setup();
    const list = screen.getByRole("list", { name: "Queued messages (3)" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["first", "second", "third"]);
    expect(screen.getByText("Queued · 3")).toBeInTheDocument();
  });

  it("edits and removes by item", async () => {
    const on = setup();
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 2" }));
    expect(on.onEdit).toHaveBeenCalledWith("p2");
    await userEvent.click(screen.getByRole("button", { name: "Remove queued message 1" }));
    expect(on.onRemove).toHaveBeenCalledWith("p1");
  });

  it("reorders with the arrow keys on the grip and with Alt+arrows on a row", async () => {
    const on = setup();
    screen.getByRole("button", { name: "Move queued message 3" }).focus();
    await userEvent.keyboard("{ArrowUp}");
    expect(on.onMove).toHaveBeenLastCalledWith("p3", 1);
    screen.getByRole("button", { name: "Edit queued message 1" }).focus();
    await userEvent.keyboard("{Alt>}{ArrowDown}{/Alt}");
    expect(on.onMove).toHaveBeenLastCalledWith("p1", 1);
    expect(screen.getByRole("status")).toHaveTextContent("Moved to position 2 of 3");
  });

  it("shows a paused queue with Resume", async () => {
    const on = setup({ paused: true });
    expect(screen.getByText("Queue paused — 3 waiting")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Resume" }));
    expect(on.onResume).toHaveBeenCalled();
  });

  it("the row being edited stays in the list, says what saving does, and offers Cancel edit", async () => {
    const onCancelEdit = vi.fn();
    setup({ editingId: "p2", onCancelEdit });
    const row = screen.getAllByRole("listitem")[1]!;
    expect(row).toHaveTextContent("Editing — saving moves it to the end of the queue");
    expect(row).toHaveAttribute("aria-current", "true");
    expect(screen.queryByRole("button", { name: "Edit queued message 2" })).toBeNull();
    await userEvent.click(within(row).getByRole("button", { name: "Cancel edit" }));
    expect(onCancelEdit).toHaveBeenCalled();
  });

  it("hides when nothing waits", () => {
    setup({ pending: [] });
    expect(screen.queryByRole("list")).toBeNull();
  });

  it("each queued row has a Send now action that names its row", async () => {
    const onSendNow = vi.fn();
    setup({ onSendNow });
    await userEvent.click(screen.getByRole("button", { name: "Send queued message 2 now" }));
    expect(onSendNow).toHaveBeenCalledWith(pending[1]!.id);
  });
});

describe("QueueTray on a plan-limit hold", () => {
  it("says until when the queue waits and why, and offers to resume now", async () => {
    const until = new Date(Date.now() + 3600_000);
    const on = setup({ paused: true, hold: { reason: "plan_limit", until: until.toISOString() } });
    const hhmm = until.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
    expect(screen.getByText(new RegExp(`Paused until .*${hhmm} — plan limit · 3 waiting`))).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Resume now" }));
    expect(on.onResume).toHaveBeenCalled();
  });
});

import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { QueueTray, type QueueTrayProps } from "./queue-tray.js";

const pending = [
  { id: "p1", text: "first", truncated: false, length: 5 },
  { id: "p2", text: "second", truncated: false, length: 6 },
  { id: "p3", text: "third", truncated: false, length: 5 },
];

function setup(props: Partial<QueueTrayProps> = {}) {
  const on = { onEdit: vi.fn(), onRemove: vi.fn(), onReorder: vi.fn<QueueTrayProps["onReorder"]>(), onResume: vi.fn(), onClear: vi.fn() };
  const utils = render(<QueueTray pending={pending} paused={false} {...on} {...props} />);
  const rerender = (next: Partial<QueueTrayProps>) => utils.rerender(<QueueTray pending={pending} paused={false} {...on} {...props} {...next} />);
  return { ...on, rerender };
}

const texts = () => within(screen.getByRole("list", { name: /^Queued messages/ })).getAllByRole("listitem").map((li) => li.textContent);
/** What the live regions say (the tray's own, and the drag library's for pointer drags). */
const announced = () => screen.getAllByRole("status").map((s) => s.textContent).join(" | ");

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

  it("reorders with the arrow keys on the grip and with Alt+arrows on a row, sending the whole new order", async () => {
    const on = setup();
    screen.getByRole("button", { name: "Move queued message 3" }).focus();
    await userEvent.keyboard("{ArrowUp}");
    expect(on.onReorder).toHaveBeenLastCalledWith(["p1", "p3", "p2"]);
    expect(announced()).toContain("Moved to position 2 of 3");
    screen.getByRole("button", { name: "Edit queued message 1" }).focus();
    await userEvent.keyboard("{Alt>}{ArrowDown}{/Alt}");
    // A move made before the server answered builds on the order the owner sees.
    expect(on.onReorder).toHaveBeenLastCalledWith(["p3", "p1", "p2"]);
    expect(on.onReorder).toHaveBeenCalledTimes(2);
  });

  it("Alt+arrow on the grip moves the row once, not once for the grip and again for the row", async () => {
    const on = setup();
    screen.getByRole("button", { name: "Move queued message 1" }).focus();
    await userEvent.keyboard("{Alt>}{ArrowDown}{/Alt}");
    expect(on.onReorder).toHaveBeenCalledTimes(1);
    expect(on.onReorder).toHaveBeenLastCalledWith(["p2", "p1", "p3"]);
  });

  it("shows a move at once, keeps focus on the moved grip, and follows the server's next list", async () => {
    const { rerender } = setup();
    screen.getByRole("button", { name: "Move queued message 3" }).focus();
    await userEvent.keyboard("{ArrowUp}");
    expect(texts()).toEqual(["first", "third", "second"]);
    await act(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Move queued message 2" }));
    // The server's queue_changed is the truth from then on, whatever it says.
    rerender({ pending: [pending[2]!, pending[1]!, pending[0]!] });
    expect(texts()).toEqual(["third", "second", "first"]);
  });

  it("a move the server refused snaps back", async () => {
    let refuse: (ok: boolean) => void = () => undefined;
    setup({ onReorder: () => new Promise<boolean>((r) => (refuse = r)) });
    screen.getByRole("button", { name: "Move queued message 1" }).focus();
    await userEvent.keyboard("{ArrowDown}");
    expect(texts()).toEqual(["second", "first", "third"]);
    await act(async () => refuse(false));
    expect(texts()).toEqual(["first", "second", "third"]);
  });

  it("does nothing past either end", async () => {
    const on = setup();
    screen.getByRole("button", { name: "Move queued message 1" }).focus();
    await userEvent.keyboard("{ArrowUp}");
    screen.getByRole("button", { name: "Move queued message 3" }).focus();
    await userEvent.keyboard("{ArrowDown}");
    expect(on.onReorder).not.toHaveBeenCalled();
  });

  it("the grip says it can be dragged once dragging has loaded, and moves by keyboard before", async () => {
    // Dragging itself (mouse and touch) needs real layout: e2e/phone.e2e.ts drives it in Chromium.
    setup();
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Move queued message 2" })).toHaveAccessibleDescription("Drag to move, or use the up and down arrow keys"),
    );
    expect(texts()).toEqual(["first", "second", "third"]);
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
    expect(row).toHaveTextContent("Editing — it keeps its place; the queue waits for it");
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

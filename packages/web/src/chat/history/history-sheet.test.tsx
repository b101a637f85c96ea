import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Menu } from "../../ui/menu.js";
import { HistorySheet } from "./history-sheet.js";
import { HistoryToggle } from "./history-toggle.js";

/** A header toggle and the sheet it opens, as the chat layout wires them at phone width. */
function Harness({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const close = () => (setOpen(false), onClose?.());
  return (
    <>
      <HistoryToggle historyOpen={open} onOpenHistory={() => setOpen(true)} />
      <button type="button">Outside</button>
      {open && (
        <HistorySheet onClose={close}>
          <a href="#new">New chat</a>
          <button type="button" data-sheet-initial-focus onClick={close}>
            Close history
          </button>
          <Menu label="Row menu" items={[{ label: "Rename", onSelect: () => undefined }]} />
          <input aria-label="Search conversations" />
          <input aria-label="Conversation title" onKeyDown={(e) => e.key === "Escape" && e.preventDefault()} />
        </HistorySheet>
      )}
    </>
  );
}

const sheet = () => screen.queryByRole("dialog", { name: "Conversation history" });

function asPhone() {
  // happy-dom evaluates media queries against its window size.
  (window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM.setViewport({ width: 390, height: 844 });
}
function asDesktop() {
  (window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM.setViewport({ width: 1440, height: 900 });
}

describe("the history drawer at phone width", () => {
  afterEach(asDesktop);

  it("is closed at first; the header button opens it as a modal with focus inside", async () => {
    asPhone();
    render(<Harness />);
    expect(sheet()).toBeNull();
    const toggle = screen.getByRole("button", { name: "Open history" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(toggle);
    expect(sheet()).toHaveAttribute("aria-modal", "true");
    // Focus goes to the close button, not the search field (that would raise a phone's keyboard).
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Close history" }));
  });

  it("Esc closes it and focus returns to the button that opened it", async () => {
    asPhone();
    render(<Harness />);
    await userEvent.click(screen.getByRole("button", { name: "Open history" }));
    await userEvent.keyboard("{Escape}");
    expect(sheet()).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Open history" }));
  });

  it("a tap on the backdrop closes it", async () => {
    asPhone();
    const onClose = vi.fn();
    const { container } = render(<Harness onClose={onClose} />);
    await userEvent.click(screen.getByRole("button", { name: "Open history" }));
    // The scrim is decoration for assistive tech (aria-hidden); a pointer tap on it closes.
    fireEvent.click(container.querySelector('[aria-hidden="true"]:not(svg)')!);
    expect(sheet()).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("Esc inside an open menu closes the menu only", async () => {
    asPhone();
    render(<Harness />);
    await userEvent.click(screen.getByRole("button", { name: "Open history" }));
    await userEvent.click(screen.getByRole("button", { name: "Row menu" }));
    expect(screen.getByRole("menu")).toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(sheet()).not.toBeNull();
  });

  it("Esc that ends an inline rename leaves the sheet open", async () => {
    asPhone();
    render(<Harness />);
    await userEvent.click(screen.getByRole("button", { name: "Open history" }));
    screen.getByRole("textbox", { name: "Conversation title" }).focus();
    await userEvent.keyboard("{Escape}");
    expect(sheet()).not.toBeNull();
  });

  it("Tab stays inside the sheet", async () => {
    asPhone();
    render(<Harness />);
    await userEvent.click(screen.getByRole("button", { name: "Open history" }));
    screen.getByRole("textbox", { name: "Conversation title" }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole("link", { name: "New chat" }));
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Conversation title" }));
  });

  it("on a desktop the button only shows while the column is collapsed, and says Expand", () => {
    asDesktop();
    render(<HistoryToggle historyOpen={false} onOpenHistory={() => undefined} />);
    expect(screen.getByRole("button", { name: "Expand history" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Open history" })).toBeNull();
  });
});

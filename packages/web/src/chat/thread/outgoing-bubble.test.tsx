import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api/api-context.js";
import type { CofferApi } from "../../api/client.js";
import { OutgoingBubble, type OutgoingMessage } from "./outgoing-bubble.js";

const actions = () => ({ retry: vi.fn(), sendEarlier: vi.fn(), discard: vi.fn() });
const message = (state: OutgoingMessage["state"]): OutgoingMessage => ({ clientId: "k1", text: "<b>run: curl x | sh</b>", state });

describe("a message on its way", () => {
  it("from an earlier visit: shown as text, marked not sent, with Send and Discard that act only on the click", async () => {
    const a = actions();
    render(<OutgoingBubble out={message("earlier")} actions={a} />);
    const review = screen.getByRole("group", { name: "Not sent — from an earlier visit" });
    expect(screen.getByText("<b>run: curl x | sh</b>")).toBeInTheDocument(); // never markup
    expect(a.sendEarlier).not.toHaveBeenCalled();
    await userEvent.click(within(review).getByRole("button", { name: "Discard the unsent message" }));
    expect(a.discard).toHaveBeenCalledWith("k1");
    await userEvent.click(within(review).getByRole("button", { name: "Send the unsent message" }));
    expect(a.sendEarlier).toHaveBeenCalledWith("k1");
    expect(a.retry).not.toHaveBeenCalled();
  });

  it("failed in this visit: Not sent · Retry, and no review buttons", async () => {
    const a = actions();
    render(<OutgoingBubble out={message("failed")} actions={a} />);
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(a.retry).toHaveBeenCalledWith("k1");
    expect(screen.queryByRole("group", { name: /earlier visit/ })).toBeNull();
  });

  it("slow: Sending…; just sent: the bubble alone", () => {
    const { rerender } = render(<OutgoingBubble out={message("slow")} actions={actions()} />);
    expect(screen.getByText("Sending…")).toBeInTheDocument();
    rerender(<OutgoingBubble out={message("sending")} actions={actions()} />);
    expect(screen.queryByText("Sending…")).toBeNull();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("files only: its files under no empty bubble, the Retry still there", async () => {
    const api = { attachmentBlob: vi.fn(async () => new Blob(["x"])) } as unknown as CofferApi;
    const out: OutgoingMessage = { clientId: "k2", text: "", state: "failed", attachments: [{ id: "a1", name: "notes.txt", media_type: "text/plain", size: 5 }] };
    const { container } = render(
      <ApiProvider api={api}>
        <OutgoingBubble out={out} actions={actions()} />
      </ApiProvider>,
    );
    expect(await screen.findByRole("button", { name: /notes\.txt/ })).toBeInTheDocument();
    expect(container.querySelector(".bubble")).toBeNull();
    expect(screen.getByRole("button", { name: "Retry" })).toBeInTheDocument();
  });
});

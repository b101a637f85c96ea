import type { PendingItemIn, PendingPreview } from "@coffer/protocol";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api/api-context.js";
import { ApiError, type CofferApi } from "../../api/client.js";
import { ToastProvider } from "../../ui/toasts.js";
import { QueueComposer } from "./queue-composer.js";

const preview = (id: string, text: string): PendingPreview => ({ id, text, truncated: false, length: text.length });
const queued: PendingPreview[] = [preview("p1", "first queued"), preview("p2", "second queued")];

/**
 * The daemon is stood in for by a recorder of queue writes: these tests pin what the page
 * asks the server to do (the real queue is exercised end to end in e2e/typed-input.e2e.ts).
 */
function setup(options: { pending?: PendingPreview[]; whole?: PendingPreview[]; fail?: boolean } = {}) {
  const setPending = vi.fn(async (_id: string, _items: PendingItemIn[], _resume?: boolean) => {
    if (options.fail) throw new ApiError(409, "TURN_IN_PROGRESS", "the daemon is busy");
    return { pending: [], paused: false };
  });
  // GET …/pending has each queued message whole (the live frame may carry only its start).
  const whole = options.whole ?? options.pending ?? queued;
  const pending = vi.fn(async () => ({ pending: whole.map(({ id, text }) => ({ id, text })), paused: false }));
  const api = { setPending, pending } as unknown as CofferApi;
  const props = {
    conversationId: "c1",
    agentName: "Claude Code",
    paused: false,
    running: true,
    stopping: false,
    onSend: vi.fn(),
    onStop: vi.fn(),
  };
  const view = (pending: PendingPreview[]) => (
    <ApiProvider api={api}>
      <ToastProvider>
        <QueueComposer {...props} pending={pending} />
      </ToastProvider>
    </ApiProvider>
  );
  const utils = render(view(options.pending ?? queued));
  const box = screen.getByRole("textbox", { name: "Message Claude Code" });
  return { ...utils, box, setPending, pending, props, rerenderWith: (p: PendingPreview[]) => utils.rerender(view(p)) };
}

const rows = () => within(screen.getByRole("list", { name: /^Queued messages/ })).getAllByRole("listitem");

afterEach(() => localStorage.clear());

describe("editing a queued message", () => {
  it("↑ in an empty composer opens the last queued message without touching the server queue", async () => {
    const { box, setPending } = setup();
    box.focus();
    await userEvent.keyboard("{ArrowUp}");
    expect(box).toHaveValue("second queued");
    expect(setPending).not.toHaveBeenCalled();
    // Still queued, and the row says what saving does.
    expect(rows()).toHaveLength(2);
    expect(rows()[1]).toHaveTextContent("Editing — saving moves it to the end of the queue");
  });

  it("Esc ends the edit: the message is still queued where it was, nothing was sent, the draft comes back", async () => {
    const { box, setPending, props } = setup();
    await userEvent.type(box, "my unsent draft");
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    expect(box).toHaveValue("first queued");
    await userEvent.type(box, " but changed");
    await userEvent.keyboard("{Escape}");
    expect(box).toHaveValue("my unsent draft");
    expect(setPending).not.toHaveBeenCalled();
    expect(props.onStop).not.toHaveBeenCalled();
    expect(rows().map((r) => r.querySelector(".queue-text")?.textContent)).toEqual(["first queued", "second queued"]);
    expect(screen.queryByText(/Editing — saving/)).toBeNull();
  });

  it("Cancel edit on the row restores it too", async () => {
    const { box, setPending } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 2" }));
    await userEvent.click(screen.getByRole("button", { name: "Cancel edit" }));
    expect(box).toHaveValue("");
    expect(setPending).not.toHaveBeenCalled();
  });

  it("leaving mid-edit (the composer unmounts) changes nothing on the server", async () => {
    const { box, setPending, unmount } = setup();
    box.focus();
    await userEvent.keyboard("{ArrowUp}");
    await userEvent.type(box, " edited");
    unmount();
    expect(setPending).not.toHaveBeenCalled();
  });

  it("saving replaces the message in one write: the original goes, the new text joins the tail", async () => {
    const { box, setPending, props } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    await userEvent.clear(box);
    await userEvent.type(box, "first, amended{Enter}");
    expect(setPending).toHaveBeenCalledTimes(1);
    expect(setPending).toHaveBeenCalledWith("c1", [{ id: "p2", text: "second queued" }, { text: "first, amended" }], true, ["p1", "p2"]);
    expect(props.onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue("");
  });

  it("a save the daemon refuses reopens the edit with the typed text", async () => {
    const { box, setPending } = setup({ fail: true });
    box.focus();
    await userEvent.keyboard("{ArrowUp}");
    await userEvent.type(box, " v2{Enter}");
    expect(setPending).toHaveBeenCalledTimes(1);
    await screen.findByText(/Could not update the queue/);
    expect(box).toHaveValue("second queued v2");
    expect(rows()[1]).toHaveTextContent("Editing — saving moves it to the end of the queue");
  });

  it("if the message leaves the queue mid-edit (it ran), saving queues the text as a new message", async () => {
    const { box, setPending, rerenderWith } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    act(() => rerenderWith([queued[1]!]));
    expect(screen.getByText(/The message you are editing has left the queue/)).toBeInTheDocument();
    await userEvent.type(box, "!{Enter}");
    expect(setPending).toHaveBeenCalledWith("c1", [{ id: "p2", text: "second queued" }, { text: "first queued!" }], true, ["p2"]);
  });
});

describe("a long queued message (its live frame carries only a preview)", () => {
  const long = "x".repeat(300);
  const truncated: PendingPreview = { id: "p9", text: long.slice(0, 200), truncated: true, length: 300 };

  it("Edit fetches the whole text first, and saving sends the whole text", async () => {
    const { box, setPending, pending } = setup({ pending: [truncated], whole: [preview("p9", long)] });
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    await screen.findByText(/Editing — saving/);
    expect(pending).toHaveBeenCalledTimes(1);
    expect(box).toHaveValue(long);
    await userEvent.type(box, "!{Enter}");
    expect(setPending).toHaveBeenCalledWith("c1", [{ text: `${long}!` }], true, ["p9"]);
  });

  it("reordering or removing around it sends its id alone, never the preview text", async () => {
    const { setPending } = setup({ pending: [queued[0]!, truncated] });
    await userEvent.click(screen.getByRole("button", { name: /Remove queued message 1/ }));
    expect(setPending).toHaveBeenCalledWith("c1", [{ id: "p9" }], false, ["p1", "p9"]);
  });
});

describe("drafts", () => {
  it("what is typed survives a remount (a reload) and is cleared when sent", async () => {
    const first = setup({ pending: [] });
    await userEvent.type(first.box, "half a thought");
    first.unmount();
    const second = setup({ pending: [] });
    expect(second.box).toHaveValue("half a thought");
    await userEvent.type(second.box, "{Enter}");
    expect(second.props.onSend).toHaveBeenCalledWith("half a thought");
    second.unmount();
    expect(setup({ pending: [] }).box).toHaveValue("");
  });

  it("an edit's text never overwrites the saved draft", async () => {
    const first = setup();
    await userEvent.type(first.box, "draft");
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    await userEvent.type(first.box, " and more");
    first.unmount(); // a reload mid-edit
    expect(setup().box).toHaveValue("draft");
  });
});

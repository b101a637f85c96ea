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
function setup(options: { pending?: PendingPreview[]; whole?: PendingPreview[]; fail?: boolean; running?: boolean; holdRefused?: boolean } = {}) {
  const setPending = vi.fn(async (_id: string, _items: PendingItemIn[], _resume?: boolean, _seen?: readonly string[], _hold?: string) => {
    if (options.fail) throw new ApiError(409, "TURN_IN_PROGRESS", "the daemon is busy");
    return { pending: [], paused: false };
  });
  // GET …/pending has each queued message whole (the live frame may carry only its start).
  const whole = options.whole ?? options.pending ?? queued;
  const pending = vi.fn(async () => ({ pending: whole.map(({ id, text }) => ({ id, text })), paused: false }));
  // The edit hold (issue 22 B): taken when an edit opens, released when it ends without a save.
  const holdPending = vi.fn(async (_id: string, pid: string) => {
    if (options.holdRefused) throw new ApiError(409, "PENDING_BEING_EDITED", "this queued message is being edited on the web page (held until 12:00:20 UTC unless renewed); finish or cancel that edit first");
    return { hold_id: `hold-${pid}`, expires_at: "2026-01-01T12:00:20.000Z", lease_ms: 20_000 };
  });
  const releasePendingHold = vi.fn(async () => null);
  const releasePendingHoldOnLeave = vi.fn();
  const api = { setPending, pending, holdPending, releasePendingHold, releasePendingHoldOnLeave } as unknown as CofferApi;
  const props = {
    conversationId: "c1",
    agentName: "Claude Code",
    paused: false,
    running: options.running ?? true,
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
  return { ...utils, box, setPending, pending, holdPending, releasePendingHold, releasePendingHoldOnLeave, props, rerenderWith: (p: PendingPreview[]) => utils.rerender(view(p)) };
}

const rows = () => within(screen.getByRole("list", { name: /^Queued messages/ })).getAllByRole("listitem");

afterEach(() => localStorage.clear());

describe("editing a queued message", () => {
  it("↑ in an empty composer opens the last queued message and holds the queue, without changing it", async () => {
    const { box, setPending, holdPending } = setup();
    box.focus();
    await userEvent.keyboard("{ArrowUp}");
    expect(box).toHaveValue("second queued");
    expect(setPending).not.toHaveBeenCalled();
    expect(holdPending).toHaveBeenCalledWith("c1", "p2");
    // Still queued, and the row says the queue waits for it.
    expect(rows()).toHaveLength(2);
    expect(rows()[1]).toHaveTextContent("Editing — it keeps its place; the queue waits for it");
  });

  it("with no turn running and the edited message at the head, the queue says it waits for your edit", async () => {
    setup({ running: false });
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    expect(screen.getByRole("region", { name: "Message queue" })).toHaveTextContent("Waiting for your edit · 2 queued");
    expect(rows()[0]).toHaveTextContent("Waiting for your edit");
    expect(screen.getByText("Editing a queued message · Enter saves it in its place · Esc cancels")).toBeInTheDocument();
  });

  it("a message another tab is editing says so, and opening it there is refused with who holds it", async () => {
    const held: PendingPreview = { ...queued[0]!, editing: { by: "web", since: "2026-01-01T12:00:00.000Z" } };
    const { box } = setup({ pending: [held, queued[1]!], running: false, holdRefused: true });
    expect(rows()[0]).toHaveTextContent("Being edited in another tab");
    expect(screen.queryByRole("button", { name: "Edit queued message 1" })).toBeNull();
    expect(screen.getByRole("region", { name: "Message queue" })).toHaveTextContent("Waiting for an edit elsewhere · 2 queued");
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 2" }));
    await screen.findByText(/Could not edit it: this queued message is being edited on the web page/);
    expect(box).toHaveValue("");
  });

  it("Esc ends the edit: the message is still queued where it was, nothing was sent, the draft comes back", async () => {
    const { box, setPending, props, releasePendingHold } = setup();
    await userEvent.type(box, "my unsent draft");
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    expect(box).toHaveValue("first queued");
    await userEvent.type(box, " but changed");
    await userEvent.keyboard("{Escape}");
    expect(box).toHaveValue("my unsent draft");
    expect(setPending).not.toHaveBeenCalled();
    expect(props.onStop).not.toHaveBeenCalled();
    expect(rows().map((r) => r.querySelector(".queue-text")?.textContent)).toEqual(["first queued", "second queued"]);
    expect(screen.queryByText(/Editing — it keeps/)).toBeNull();
    // The hold ends with the edit: the queue runs on.
    expect(releasePendingHold).toHaveBeenCalledWith("c1", "p1", "hold-p1");
  });

  it("Cancel edit on the row restores it too", async () => {
    const { box, setPending } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 2" }));
    await userEvent.click(screen.getByRole("button", { name: "Cancel edit" }));
    expect(box).toHaveValue("");
    expect(setPending).not.toHaveBeenCalled();
  });

  it("leaving mid-edit (the composer unmounts) changes nothing in the queue and releases the hold", async () => {
    const { box, setPending, releasePendingHold, unmount } = setup();
    box.focus();
    await userEvent.keyboard("{ArrowUp}");
    await userEvent.type(box, " edited");
    unmount();
    expect(setPending).not.toHaveBeenCalled();
    expect(releasePendingHold).toHaveBeenCalledWith("c1", "p2", "hold-p2");
  });

  it("a closing tab releases the hold with a request that outlives the page", async () => {
    const { box, releasePendingHoldOnLeave } = setup();
    box.focus();
    await userEvent.keyboard("{ArrowUp}");
    await screen.findByText(/Editing — it keeps/);
    await act(async () => {
      await Promise.resolve(); // the hold's answer lands
      window.dispatchEvent(new Event("pagehide"));
    });
    expect(releasePendingHoldOnLeave).toHaveBeenCalledWith("c1", "p2", "hold-p2");
  });

  it("saving replaces the message in its own place in one write, which also ends the hold", async () => {
    const { box, setPending, props } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    await userEvent.clear(box);
    await userEvent.type(box, "first, amended{Enter}");
    expect(setPending).toHaveBeenCalledTimes(1);
    expect(setPending).toHaveBeenCalledWith("c1", [{ id: "p1", text: "first, amended" }, { id: "p2", text: "second queued" }], true, ["p1", "p2"], "hold-p1");
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
    expect(rows()[1]).toHaveTextContent("Editing — it keeps its place; the queue waits for it");
  });

  it("if the message leaves the queue mid-edit (it ran), saving queues the text as a new message", async () => {
    const { box, setPending, rerenderWith } = setup();
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    act(() => rerenderWith([queued[1]!]));
    expect(screen.getByText(/The message you are editing has left the queue/)).toBeInTheDocument();
    await userEvent.type(box, "!{Enter}");
    expect(setPending).toHaveBeenCalledWith("c1", [{ id: "p2", text: "second queued" }, { text: "first queued!" }], true, ["p2"], "hold-p1");
  });
});

describe("a long queued message (its live frame carries only a preview)", () => {
  const long = "x".repeat(300);
  const truncated: PendingPreview = { id: "p9", text: long.slice(0, 200), truncated: true, length: 300 };

  it("Edit fetches the whole text first, and saving sends the whole text", async () => {
    const { box, setPending, pending } = setup({ pending: [truncated], whole: [preview("p9", long)] });
    await userEvent.click(screen.getByRole("button", { name: "Edit queued message 1" }));
    await screen.findByText(/Editing — it keeps/);
    expect(pending).toHaveBeenCalledTimes(1);
    expect(box).toHaveValue(long);
    await userEvent.type(box, "!{Enter}");
    expect(setPending).toHaveBeenCalledWith("c1", [{ id: "p9", text: `${long}!` }], true, ["p9"], "hold-p9");
  });

  it("reordering or removing around it sends its id alone, never the preview text", async () => {
    const { setPending } = setup({ pending: [queued[0]!, truncated] });
    await userEvent.click(screen.getByRole("button", { name: /Remove queued message 1/ }));
    expect(setPending).toHaveBeenCalledWith("c1", [{ id: "p9" }], false, ["p1", "p9"], undefined);
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
    expect(second.props.onSend).toHaveBeenCalledWith("half a thought", []);
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

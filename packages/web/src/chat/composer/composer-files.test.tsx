import type { AttachmentOut } from "@coffer/protocol";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../api/api-context.js";
import { ApiError, type CofferApi } from "../../api/client.js";
import { Composer, type ComposerProps } from "./composer.js";
import { loadDraftFiles, loadUnsent } from "./draft-store.js";

/**
 * The daemon is stood in for by uploads the test finishes by hand (happy-dom has no daemon to
 * upload to): these tests pin the composer's rules. The real uploads, paste, drop and progress
 * run against a real daemon in e2e/composer-attach.e2e.ts.
 */
function setup(props: Partial<ComposerProps> = {}, maxBytes = 1024) {
  const uploads: { name: string; resolve: (a: AttachmentOut) => void; reject: (e: Error) => void; progress: (f: number) => void }[] = [];
  const api = {
    attachmentLimits: vi.fn(async () => ({ max_bytes: maxBytes })),
    uploadAttachment: vi.fn((file: Blob, name: string, progress: (f: number) => void) => {
      let resolve!: (a: AttachmentOut) => void;
      let reject!: (e: Error) => void;
      const done = new Promise<AttachmentOut>((y, n) => ((resolve = y), (reject = n)));
      uploads.push({ name, resolve, reject, progress });
      return { done, abort: vi.fn() };
    }),
    attachmentBlob: vi.fn(async () => new Blob(["x"])),
  } as unknown as CofferApi;
  const onSend = vi.fn();
  const onSteer = vi.fn();
  const utils = render(
    <ApiProvider api={api}>
      <Composer agentName="Claude Code" running={false} stopping={false} paused={false} onSend={onSend} onSteer={onSteer} onStop={() => undefined} {...props} />
    </ApiProvider>,
  );
  const pick = async (files: File[]) => {
    await userEvent.upload(screen.getByLabelText("Files to attach"), files);
    // The cap is read, then the chips render (a lazy chunk).
    await screen.findByRole("list", { name: "Files to send" }).catch(() => undefined);
  };
  const box = screen.getByRole("textbox", { name: "Message Claude Code" });
  return { ...utils, api, uploads, onSend, onSteer, pick, box };
}

const described = (id: string, name: string, size: number, media_type = "text/plain"): AttachmentOut => ({ id, name, media_type, size });

afterEach(() => localStorage.clear());

describe("the composer's files", () => {
  it("refuses, before uploading, a file over the cap and an empty one, naming each and why", async () => {
    const { pick, api } = setup({}, 1024);
    await pick([new File(["x".repeat(2048)], "big.log"), new File([], "empty.txt")]);
    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((a) => a.textContent)).toEqual(["big.log is 2 KB, over the 1 KB limit for one file.", "empty.txt is empty (0 bytes): there is nothing to attach."]);
    expect(api.uploadAttachment).not.toHaveBeenCalled();
  });

  it("a dropped folder is refused by name; the composer is the drop target while files are over it", async () => {
    const { box, api } = setup();
    const composer = box.closest(".composer")!;
    const folder = { kind: "file", webkitGetAsEntry: () => ({ isDirectory: true, name: "photos" }), getAsFile: () => null };
    const dataTransfer = { types: ["Files"], items: [folder], dropEffect: "none" };
    fireEvent.dragOver(composer, { dataTransfer });
    expect(screen.getByText("Drop to attach")).toBeInTheDocument();
    fireEvent.drop(composer, { dataTransfer });
    expect(screen.queryByText("Drop to attach")).toBeNull();
    expect((await screen.findByRole("alert")).textContent).toBe("photos is a folder: attach the files in it, or a zip of it.");
    expect(api.uploadAttachment).not.toHaveBeenCalled();
  });

  it("holds Send while an upload runs, sends files only when the box is empty, and clears the chips", async () => {
    const { pick, uploads, onSend } = setup({ draftKey: "c1" });
    await pick([new File(["hello"], "notes.txt", { type: "text/plain" })]);
    expect(screen.getByRole("button", { name: "Send" })).toHaveAttribute("aria-disabled", "true");
    act(() => uploads[0]!.progress(0.4));
    expect(await screen.findByRole("progressbar", { name: "Uploading notes.txt" })).toHaveAttribute("value", "0.4");
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).not.toHaveBeenCalled();
    const notes = described("a1", "notes.txt", 5);
    await act(async () => uploads[0]!.resolve(notes));
    expect(screen.getByRole("button", { name: "Send" })).toHaveAttribute("aria-disabled", "false");
    // Ready files are kept with the draft (a reload brings the chip back).
    expect(loadDraftFiles("c1")).toEqual([notes]);
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(onSend).toHaveBeenCalledWith("", [notes]);
    expect(screen.queryByRole("list", { name: "Files to send" })).toBeNull();
    expect(loadDraftFiles("c1")).toEqual([]);
  });

  it("a failed upload blocks Send until it is retried or removed (× by the keyboard)", async () => {
    const { pick, uploads, onSend, box } = setup();
    await pick([new File(["a"], "a.txt")]);
    await act(async () => uploads[0]!.reject(new ApiError(413, "ATTACHMENT_TOO_LARGE", "too large")));
    const chip = within(screen.getByRole("list", { name: "Files to send" })).getByRole("listitem");
    expect(chip.textContent).toContain("Not uploaded: too large");
    await userEvent.type(box, "see file{Enter}");
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.click(within(chip).getByRole("button", { name: "Retry uploading a.txt" }));
    expect(uploads).toHaveLength(2);
    await act(async () => uploads[1]!.reject(new Error("offline")));
    within(chip).getByRole("button", { name: "Remove a.txt" }).focus();
    await userEvent.keyboard("{Enter}");
    expect(screen.queryByRole("list", { name: "Files to send" })).toBeNull();
    expect(box).toHaveFocus(); // the focus goes back to the message, not to the page
    await userEvent.keyboard("{Enter}");
    expect(onSend).toHaveBeenCalledWith("see file", []);
  });

  it("while a turn runs, files never steer: no Steer button, and Ctrl+Enter queues with the files", async () => {
    const { pick, uploads, onSend, onSteer, box } = setup({ running: true });
    await userEvent.type(box, "with a log");
    expect(screen.getByRole("button", { name: /^Steer/ })).toBeInTheDocument();
    await pick([new File(["log"], "crash.log")]);
    const log = described("a2", "crash.log", 3);
    await act(async () => uploads[0]!.resolve(log));
    expect(screen.queryByRole("button", { name: /^Steer/ })).toBeNull();
    expect(screen.getByText(/files cannot steer/)).toBeInTheDocument();
    fireEvent.keyDown(box, { key: "Enter", ctrlKey: true });
    expect(onSteer).not.toHaveBeenCalled();
    expect(onSend).toHaveBeenCalledWith("with a log", [log]);
  });

  it("restores a draft's chips from storage, ignoring planted entries of the wrong shape", () => {
    localStorage.setItem("coffer.draft.files.c.c2", JSON.stringify([described("a3", "spec.pdf", 9, "application/pdf")]));
    localStorage.setItem("coffer.draft.files.c.c3", JSON.stringify([{ id: "x", name: 7 }]));
    localStorage.setItem("coffer.draft.outbox.c3", JSON.stringify([{ clientId: "00000000-0000-4000-8000-000000000001", text: "", attachments: [{ id: "x" }] }]));
    expect(loadDraftFiles("c3")).toEqual([]);
    expect(loadUnsent("c3")).toEqual([]);
    setup({ draftKey: "c2" });
    return screen.findByRole("list", { name: "Files to send" }).then((list) => {
      expect(list.textContent).toContain("spec.pdf");
      expect(screen.getByRole("button", { name: "Send" })).toHaveAttribute("aria-disabled", "false");
    });
  });
});

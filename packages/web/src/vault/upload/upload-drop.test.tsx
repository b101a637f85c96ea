import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { toUploadFiles, uploadLabel, UPLOAD_LIMIT_BYTES, type PickedFile } from "./picked-files.js";
import { UploadDrop } from "./upload-drop.js";

const file = (name: string, text: string, relative = "") => {
  const f = new File([text], name, { type: "text/markdown" });
  if (relative) Object.defineProperty(f, "webkitRelativePath", { value: relative });
  return f;
};

function setup() {
  const onFiles = vi.fn<(files: PickedFile[]) => void>();
  render(<UploadDrop label="Upload documents" hint="Text files." busy={false} onFiles={onFiles} />);
  const zone = screen.getByRole("group", { name: "Upload documents" });
  return { onFiles, zone };
}

describe("UploadDrop", () => {
  it("takes picked files, and a picked folder's files with their paths inside it", async () => {
    const { onFiles } = setup();
    await userEvent.upload(screen.getByLabelText("Upload documents: files"), [file("a.md", "# A"), file("b.txt", "b")]);
    expect(onFiles.mock.calls[0]![0].map((f) => f.path)).toEqual(["a.md", "b.txt"]);
    await userEvent.upload(screen.getByLabelText("Upload documents: folder"), [file("c.md", "c", "notes/c.md"), file("d.md", "d", "notes/sub/d.md")]);
    const folder = onFiles.mock.calls[1]![0];
    expect(folder.map((f) => f.path)).toEqual(["notes/c.md", "notes/sub/d.md"]);
    expect(uploadLabel(folder)).toBe("notes");
    expect(uploadLabel(onFiles.mock.calls[0]![0])).toBe("2 files");
  });

  it("takes a drop and lights up under a drag", () => {
    const { onFiles, zone } = setup();
    fireEvent.dragOver(zone, { dataTransfer: { dropEffect: "none" } });
    expect(zone).toHaveAttribute("data-over");
    expect(zone).toHaveTextContent("Drop to upload");
    const dropped = file("drop.md", "dropped");
    fireEvent.drop(zone, { dataTransfer: { files: [dropped], items: [] } });
    expect(zone).not.toHaveAttribute("data-over");
    return vi.waitFor(() => expect(onFiles).toHaveBeenCalledWith([{ path: "drop.md", file: dropped }]));
  });

  it("takes a drop anywhere on the page section around it, which shows itself as the drop target", () => {
    const onFiles = vi.fn<(files: PickedFile[]) => void>();
    render(
      <section aria-label="Documents">
        <UploadDrop label="Upload documents" hint="Text files." busy={false} onFiles={onFiles} />
        <table aria-label="Documents in notes" />
      </section>,
    );
    const section = screen.getByRole("region", { name: "Documents" });
    const table = screen.getByRole("table", { name: "Documents in notes" });
    const zone = screen.getByRole("group", { name: "Upload documents" });
    fireEvent.dragOver(table, { dataTransfer: { dropEffect: "none", types: ["Files"] } });
    expect(section).toHaveAttribute("data-drop-over");
    expect(zone).toHaveTextContent("Drop to upload");
    // Leaving for somewhere outside the section puts it out.
    fireEvent.dragLeave(table, { relatedTarget: document.body });
    expect(section).not.toHaveAttribute("data-drop-over");
    fireEvent.dragOver(table, { dataTransfer: { dropEffect: "none", types: ["Files"] } });
    const dropped = file("beside.md", "dropped beside the box");
    fireEvent.drop(table, { dataTransfer: { files: [dropped], items: [], types: ["Files"] } });
    expect(section).not.toHaveAttribute("data-drop-over");
    return vi.waitFor(() => expect(onFiles).toHaveBeenCalledWith([{ path: "beside.md", file: dropped }]));
  });

  it("lets a drag that carries no files (text from the page) pass", () => {
    const { onFiles, zone } = setup();
    const over = fireEvent.dragOver(zone, { dataTransfer: { dropEffect: "none", types: ["text/plain"] } });
    expect(over).toBe(true); // not cancelled: the browser's own handling stays
    expect(zone).not.toHaveAttribute("data-over");
    expect(onFiles).not.toHaveBeenCalled();
  });

  it("refuses an upload over the daemon's cap before sending, saying the limit", async () => {
    const { onFiles } = setup();
    const big = file("big.md", "x");
    Object.defineProperty(big, "size", { value: UPLOAD_LIMIT_BYTES });
    await userEvent.upload(screen.getByLabelText("Upload documents: files"), [big]);
    expect(onFiles).not.toHaveBeenCalled();
    expect(screen.getByRole("alert")).toHaveTextContent(`uploads are limited to ${UPLOAD_LIMIT_BYTES / 1024 / 1024} MB`);
  });
});

describe("toUploadFiles", () => {
  it("sends each file's exact bytes as base64, binary included", async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255, 0x68, 0x69]);
    const out = await toUploadFiles([{ path: "bin/x.dat", file: new File([bytes], "x.dat") }, { path: "é.md", file: file("é.md", "héllo") }]);
    expect(out).toEqual([
      { path: "bin/x.dat", content_base64: Buffer.from(bytes).toString("base64") },
      { path: "é.md", content_base64: Buffer.from("héllo").toString("base64") },
    ]);
  });
});

import { useEffect, useRef, useState, type ReactNode } from "react";
import { Icon } from "../../ui/icons.js";
import { useIsTouch } from "../../ui/use-media-query.js";
import { fromDrop, fromFileList, uploadBytes, UPLOAD_LIMIT_BYTES, type PickedFile } from "./picked-files.js";
import "./upload.css";

interface Props {
  /** Names the drop area for assistive tech: "Upload documents", "Upload skills". */
  readonly label: string;
  /** What the area says it takes. */
  readonly hint: ReactNode;
  readonly busy: boolean;
  readonly onFiles: (files: PickedFile[]) => void;
}

const MB = 1024 * 1024;

/**
 * Upload from the browser: pick files, pick a folder, or drop either on the area — or anywhere
 * on the page section around it (the documents panel, Add skills: a drop aimed at the table
 * beside the dashed box was lost), which then shows itself as the drop target
 * (`data-drop-over`). Over the daemon's upload cap, nothing is sent and the owner is told why
 * (the daemon would answer 413 UPLOAD_TOO_LARGE with the same limit).
 */
export function UploadDrop({ label, hint, busy, onFiles }: Props) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const touch = useIsTouch();
  const [refused, setRefused] = useState<string | null>(null);
  const take = (files: PickedFile[]) => {
    if (files.length === 0) return;
    const bytes = uploadBytes(files);
    if (bytes > UPLOAD_LIMIT_BYTES) {
      setRefused(`${files.length} file${files.length === 1 ? "" : "s"} would make an upload of ${(bytes / MB).toFixed(1)} MB; uploads are limited to ${UPLOAD_LIMIT_BYTES / MB} MB. Upload fewer files at a time, or import the folder by its path.`);
      return;
    }
    setRefused(null);
    onFiles(files);
  };
  const zone = useRef<HTMLDivElement>(null);
  // Read through refs by the listeners below, which are bound once per target.
  const latest = useRef({ busy, take });
  latest.current = { busy, take };
  useEffect(() => {
    const area = zone.current;
    if (!area) return;
    // The section around the area takes the drop (a drop on the area bubbles up to it); alone, the area does.
    const target = area.closest<HTMLElement>("section") ?? area;
    const show = (on: boolean) => {
      setOver(on);
      if (target !== area) target.toggleAttribute("data-drop-over", on);
    };
    const carriesFiles = (e: DragEvent) => !e.dataTransfer || [...(e.dataTransfer.types ?? [])].length === 0 || [...e.dataTransfer.types].includes("Files");
    const onDragOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return; // a text or link drag inside the page is not an upload
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = latest.current.busy ? "none" : "copy";
      show(true);
    };
    const onDragLeave = (e: DragEvent) => {
      if (!target.contains(e.relatedTarget as Node | null)) show(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      show(false);
      if (latest.current.busy || !e.dataTransfer) return;
      // Read the drop now: its items are gone once this handler returns.
      void fromDrop(e.dataTransfer).then(latest.current.take, (err: unknown) => setRefused(`The dropped files could not be read (${(err as Error).message}).`));
    };
    target.addEventListener("dragover", onDragOver);
    target.addEventListener("dragleave", onDragLeave);
    target.addEventListener("drop", onDrop);
    return () => {
      target.removeEventListener("dragover", onDragOver);
      target.removeEventListener("dragleave", onDragLeave);
      target.removeEventListener("drop", onDrop);
      target.removeAttribute("data-drop-over");
    };
  }, []);
  return (
    <div ref={zone} className="upload-drop" role="group" aria-label={label} data-over={over || undefined}>
      <Icon name="upload" />
      <div className="upload-text">
        {/* A phone cannot drag files onto a page: there the area names what its buttons do. */}
        <span className="upload-title">{over ? "Drop to upload" : touch ? "Upload files or a folder" : "Drop files or a folder here"}</span>
        <span className="field-hint">{hint}</span>
      </div>
      <div className="upload-actions">
        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => filesInput.current?.click()}>
          <Icon name="upload" size={14} /> Choose files
        </button>
        <button type="button" className="btn btn-sm" disabled={busy} onClick={() => folderInput.current?.click()}>
          <Icon name="folder" size={14} /> Choose folder
        </button>
      </div>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        aria-label={`${label}: files`}
        onChange={(e) => (take(fromFileList(e.target.files)), (e.target.value = ""))}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        aria-label={`${label}: folder`}
        // React does not know these attributes; the browser needs them to pick a whole folder.
        {...{ webkitdirectory: "", directory: "" }}
        onChange={(e) => (take(fromFileList(e.target.files)), (e.target.value = ""))}
      />
      {refused && (
        <p className="field-error upload-refused" role="alert">
          {refused}
        </p>
      )}
    </div>
  );
}

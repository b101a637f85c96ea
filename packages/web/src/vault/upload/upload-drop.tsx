import { useRef, useState, type DragEvent, type ReactNode } from "react";
import { Icon } from "../../ui/icons.js";
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
 * Upload from the browser: pick files, pick a folder, or drop either on the area. Over the
 * daemon's upload cap, nothing is sent and the owner is told why (the daemon would answer
 * 413 UPLOAD_TOO_LARGE with the same limit).
 */
export function UploadDrop({ label, hint, busy, onFiles }: Props) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
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
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    if (busy) return;
    // Read the drop now: its items are gone once this handler returns.
    void fromDrop(e.dataTransfer).then(take, (err: unknown) => setRefused(`The dropped files could not be read (${(err as Error).message}).`));
  };
  return (
    <div
      className="upload-drop"
      role="group"
      aria-label={label}
      data-over={over || undefined}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = busy ? "none" : "copy";
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <Icon name="upload" />
      <div className="upload-text">
        <span className="upload-title">{over ? "Drop to upload" : "Drop files or a folder here"}</span>
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

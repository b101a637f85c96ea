import { INLINE_IMAGE_TYPES } from "@coffer/protocol";
import { useEffect, useState } from "react";
import { useMaybeApi } from "../../api/api-context.js";
import { humanSize } from "../../ui/human-size.js";
import { Icon } from "../../ui/icons.js";
import type { ComposerFiles, ComposerFile } from "./use-composer-files.js";
import "./composer-files.css";

/**
 * The composer's files before they are sent: a chip each (a thumbnail for a plain image, the
 * name, the size, or the upload's progress, or why it failed with Retry), each removable with ×;
 * then the files that were refused, and why.
 */
export default function FileChips({ files }: { files: ComposerFiles }) {
  return (
    <div className="compose-files">
      {files.files.length > 0 && (
        <ul className="compose-chips" aria-label="Files to send">
          {files.files.map((f) => (
            <Chip
              key={f.key}
              f={f}
              onRemove={(e) => {
                // The × goes with its chip: the focus moves to the message box, not to the page.
                e.currentTarget.closest(".composer")?.querySelector("textarea")?.focus();
                files.remove(f.key);
              }}
              onRetry={() => files.retry(f.key)}
            />
          ))}
        </ul>
      )}
      {files.refusals.map((r) => (
        <p key={r.key} className="compose-refusal" role="alert">
          <Icon name="alert" size={14} />
          <span>{r.text}</span>
          <button type="button" className="icon-btn icon-btn-sm" aria-label="Dismiss" onClick={() => files.dismiss(r.key)}>
            <Icon name="x" size={12} />
          </button>
        </p>
      ))}
    </div>
  );
}

function Chip({ f, onRemove, onRetry }: { f: ComposerFile; onRemove: (e: React.MouseEvent<HTMLButtonElement>) => void; onRetry: () => void }) {
  const thumb = useThumbnail(f);
  const note = f.state === "failed" ? `Not uploaded: ${f.error ?? "it failed"}` : f.state === "uploading" ? `${humanSize(f.size)} · uploading ${Math.floor(f.progress * 100)} %` : humanSize(f.size);
  return (
    <li className="compose-chip" data-state={f.state} title={`${f.name} · ${note}`}>
      {thumb ? <img className="compose-thumb" src={thumb} alt={f.name} /> : <span className="compose-ext" aria-hidden="true">{extension(f.name)}</span>}
      <span className="compose-chip-text">
        <span className="attachment-name">{f.name}</span>
        <span className="attachment-size">{note}</span>
        {f.state === "uploading" && <progress className="compose-progress" max={1} value={f.progress} aria-label={`Uploading ${f.name}`} />}
      </span>
      {f.state === "failed" && (
        <button type="button" className="link-btn" aria-label={`Retry uploading ${f.name}`} onClick={onRetry}>
          Retry
        </button>
      )}
      <button type="button" className="icon-btn icon-btn-sm" aria-label={`Remove ${f.name}`} title="Remove" onClick={onRemove}>
        <Icon name="x" size={12} />
      </button>
    </li>
  );
}

/** "report.pdf" → "PDF": what a chip without a thumbnail shows in its place. */
function extension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 && name.length - dot <= 5 ? name.slice(dot + 1).toUpperCase() : "FILE";
}

/**
 * A plain image's thumbnail: the picked bytes through an object URL, or, for a chip restored
 * from the draft, the daemon's copy fetched with the session. The URL is revoked with the chip.
 */
function useThumbnail(f: ComposerFile): string | null {
  const api = useMaybeApi();
  const [url, setUrl] = useState<string | null>(null);
  const image = INLINE_IMAGE_TYPES.includes(f.mediaType);
  const id = f.file ? null : f.attachment?.id;
  useEffect(() => {
    if (!image) return;
    let made: string | null = null;
    let live = true;
    const show = (blob: Blob) => {
      if (!live) return;
      made = URL.createObjectURL(blob);
      setUrl(made);
    };
    if (f.file) show(f.file);
    else if (id && api) api.attachmentBlob(id).then(show, () => undefined);
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [api, image, f.file, id]);
  return url;
}

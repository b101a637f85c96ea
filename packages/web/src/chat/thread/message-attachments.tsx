import { INLINE_IMAGE_TYPES, type AttachmentOut } from "@coffer/protocol";
import { useEffect, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { humanSize } from "../../ui/human-size.js";

/**
 * The files a message carries: plain raster images as thumbnails, everything else as a chip that
 * saves the file. Bytes are fetched with the page's session (the daemon serves none without it)
 * and shown through a blob URL; SVG and HTML are never rendered, only saved.
 */
export default function MessageAttachments({ attachments }: { attachments: readonly AttachmentOut[] }) {
  return (
    <ul className="msg-attachments" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.id}>
          <AttachmentFigure attachment={a} />
        </li>
      ))}
    </ul>
  );
}

/** The file, with the agent's line for it under it when it shared one (plain text: agent output). */
function AttachmentFigure({ attachment: a }: { attachment: AttachmentOut }) {
  const file = INLINE_IMAGE_TYPES.includes(a.media_type) ? <ImageThumb attachment={a} /> : <FileChip attachment={a} />;
  if (!a.caption) return file;
  return (
    <figure className="attachment-figure">
      {file}
      <figcaption className="attachment-caption">{a.caption}</figcaption>
    </figure>
  );
}

function ImageThumb({ attachment }: { attachment: AttachmentOut }) {
  const api = useApi();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: string | null = null;
    let live = true;
    api
      .attachmentBlob(attachment.id)
      .then((blob) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [api, attachment.id]);
  if (failed) return <FileChip attachment={attachment} />;
  return (
    <a className="attachment-thumb" href={url ?? undefined} download={attachment.name} title={`${attachment.name} · ${humanSize(attachment.size)}`}>
      {url ? <img src={url} alt={attachment.name} /> : <span className="attachment-thumb-wait" aria-label={`Loading ${attachment.name}`} />}
    </a>
  );
}

function FileChip({ attachment }: { attachment: AttachmentOut }) {
  const api = useApi();
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    try {
      const url = URL.createObjectURL(await api.attachmentBlob(attachment.id));
      const link = document.createElement("a");
      link.href = url;
      link.download = attachment.name;
      link.click();
      // The click has handed the blob to the download; the URL is not needed after this task.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <button type="button" className="attachment-chip" onClick={() => void save()} title={error ?? `Save ${attachment.name}`}>
      <span className="attachment-name">{attachment.name}</span>
      <span className="attachment-size">{error ? "could not download" : humanSize(attachment.size)}</span>
    </button>
  );
}

import { ATTACHMENTS_PER_MESSAGE, type AttachmentOut } from "@coffer/protocol";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useMaybeApi } from "../../api/api-context.js";
import { loadDraftFiles, saveDraftFiles } from "./draft-store.js";

/** One file in the composer: uploading (with its progress), ready (the daemon has it), or failed. */
export interface ComposerFile {
  readonly key: string;
  readonly name: string;
  readonly size: number;
  readonly mediaType: string;
  /** The picked bytes while this page holds them (a thumbnail, a retry); null for a chip restored from the draft. */
  readonly file: File | null;
  readonly state: "uploading" | "ready" | "failed";
  /** 0–1, as the bytes leave the browser. */
  readonly progress: number;
  readonly attachment: AttachmentOut | null;
  readonly error: string | null;
}

/** A file that was not attached, and why (shown inline under the composer until the next pick or send). */
export interface Refusal {
  readonly key: string;
  readonly text: string;
}

const fromStored = (a: AttachmentOut): ComposerFile => ({
  key: a.id,
  name: a.name,
  size: a.size,
  mediaType: a.media_type,
  file: null,
  state: "ready",
  progress: 1,
  attachment: a,
  error: null,
});

/**
 * The composer's files: each upload starts the moment the file is picked, pasted or dropped, so
 * Send rarely waits; a file the daemon would refuse (over its cap, empty, a folder, one too many)
 * is refused here, before a byte leaves, with the file's name and the reason. Ready files are kept
 * with the draft (draft-store.ts), so a reload keeps the chips.
 */
export function useComposerFiles(draftKey: string | undefined) {
  const api = useMaybeApi();
  const [files, setFiles] = useState<ComposerFile[]>(() => (draftKey ? loadDraftFiles(draftKey).map(fromStored) : []));
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const aborts = useRef(new Map<string, () => void>());
  const current = useRef(files);
  current.current = files;

  // As the draft text does (composer.tsx): what is stored when the box appears wins over the first read.
  useLayoutEffect(() => {
    if (!draftKey) return;
    const stored = loadDraftFiles(draftKey);
    if (stored.map((a) => a.id).join() !== current.current.map((f) => f.attachment?.id ?? f.key).join()) setFiles(stored.map(fromStored));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (draftKey) saveDraftFiles(draftKey, files.flatMap((f) => (f.attachment ? [f.attachment] : [])));
  }, [draftKey, files]);
  // An upload this box started ends with it: its chip, the only way to send it, is gone.
  useEffect(() => () => aborts.current.forEach((abort) => abort()), []);

  const update = useCallback((key: string, change: Partial<ComposerFile>) => {
    setFiles((fs) => fs.map((f) => (f.key === key ? { ...f, ...change } : f)));
  }, []);

  const upload = useCallback(
    (f: ComposerFile) => {
      if (!f.file) return;
      if (!api) return update(f.key, { state: "failed", error: "the page is not connected to the daemon" });
      update(f.key, { state: "uploading", progress: 0, error: null });
      const request = api.uploadAttachment(f.file, f.name, (progress) => update(f.key, { progress }));
      aborts.current.set(f.key, request.abort);
      request.done.then(
        (attachment) => update(f.key, { state: "ready", progress: 1, attachment }),
        (err: Error) => {
          // Removed while uploading: there is no chip left to mark.
          if (aborts.current.has(f.key)) update(f.key, { state: "failed", error: err.message });
        },
      ).finally(() => aborts.current.delete(f.key));
    },
    [api, update],
  );

  const add = useCallback(
    async (picked: readonly File[], folders: readonly string[] = []) => {
      if (picked.length === 0 && folders.length === 0) return;
      const loaded = await import("./file-intake.js").catch(() => null);
      if (!loaded) {
        setRefusals([{ key: crypto.randomUUID(), text: "The page could not load its file code from the daemon (is it running?): nothing was attached. Reload and try again." }]);
        return;
      }
      const { taken, refused } = await loaded.intake(api, picked, folders, current.current.length);
      setRefusals(refused.map((text) => ({ key: crypto.randomUUID(), text })));
      if (taken.length === 0) return;
      const chips = taken.map((file): ComposerFile => ({ key: crypto.randomUUID(), name: file.name, size: file.size, mediaType: file.type, file, state: "uploading", progress: 0, attachment: null, error: null }));
      setFiles((fs) => [...fs, ...chips]);
      chips.forEach(upload);
    },
    [api, upload],
  );

  const remove = useCallback((key: string) => {
    const abort = aborts.current.get(key);
    aborts.current.delete(key);
    abort?.();
    setFiles((fs) => fs.filter((f) => f.key !== key));
  }, []);

  const retry = useCallback((key: string) => {
    const f = current.current.find((x) => x.key === key);
    if (f) upload(f);
  }, [upload]);

  /** After a send: the chips went with the message. */
  const clear = useCallback(() => {
    setFiles([]);
    setRefusals([]);
  }, []);

  /** Put files back (a send that failed before it reached the daemon). */
  const restore = useCallback((attachments: readonly AttachmentOut[]) => {
    setFiles((fs) => [...fs, ...attachments.filter((a) => !fs.some((f) => f.attachment?.id === a.id)).map(fromStored)].slice(0, ATTACHMENTS_PER_MESSAGE));
  }, []);

  return {
    files,
    refusals,
    add,
    remove,
    retry,
    clear,
    restore,
    dismiss: (key: string) => setRefusals((rs) => rs.filter((r) => r.key !== key)),
    ready: files.flatMap((f) => (f.state === "ready" && f.attachment ? [f.attachment] : [])),
    uploading: files.filter((f) => f.state === "uploading").length,
    failed: files.some((f) => f.state === "failed"),
  };
}

export type ComposerFiles = ReturnType<typeof useComposerFiles>;

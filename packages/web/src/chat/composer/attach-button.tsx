import { useRef } from "react";
import { Icon } from "../../ui/icons.js";

/** The composer's paperclip: a file picker (several files at once) whose picks go to `onFiles`. */
export function AttachButton({ disabled, onFiles }: { disabled?: boolean; onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="icon-btn" aria-label="Attach files" title="Attach files (or paste, or drop them here)" disabled={disabled} onClick={() => input.current?.click()}>
        <Icon name="paperclip" />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        // Cleared after each pick, so picking the same file again still reports it.
        onChange={(e) => (onFiles([...(e.target.files ?? [])]), (e.target.value = ""))}
      />
    </>
  );
}

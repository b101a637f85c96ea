import { useState } from "react";
import { ConfirmDialog } from "./confirm-dialog.js";
import { Icon } from "./icons.js";

interface Props {
  /** The button's text: "Delete", "Remove", … */
  readonly label: string;
  /** Names what goes, for screen readers: "Delete openai-key". */
  readonly ariaLabel: string;
  readonly title: string;
  readonly body: string;
  readonly confirmLabel: string;
  readonly onConfirm: () => void;
  readonly size?: "sm" | "xs";
}

/**
 * A destructive row action that asks first: the trash button and its confirm dialog. The
 * dialog mounts on first use (a long list does not carry one per row until asked) and then
 * stays, so closing it hands focus back to the button.
 */
export function ConfirmAction({ label, ariaLabel, title, body, confirmLabel, onConfirm, size = "sm" }: Props) {
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  return (
    <>
      <button
        type="button"
        className={`btn btn-${size} btn-outline-danger`}
        aria-label={ariaLabel}
        onClick={() => {
          setAsked(true);
          setOpen(true);
        }}
      >
        <Icon name="trash" size={14} /> {label}
      </button>
      {asked && (
        <ConfirmDialog
          open={open}
          title={title}
          body={body}
          confirmLabel={confirmLabel}
          onCancel={() => setOpen(false)}
          onConfirm={() => {
            setOpen(false);
            onConfirm();
          }}
        />
      )}
    </>
  );
}

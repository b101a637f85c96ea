import { ConfirmAction } from "../../ui/confirm-action.js";

/** The Delete of a memory fact (table row and search hit alike): asks, then forgets. */
export function ForgetFact({ text, name, size, onForget }: { text: string; name?: string | null; size?: "sm" | "xs"; onForget: () => void }) {
  return (
    <ConfirmAction
      label="Delete"
      ariaLabel={`Delete fact ${name || text.slice(0, 40)}`}
      title="Forget this fact?"
      body={text.length > 160 ? `${text.slice(0, 160)}…` : text}
      confirmLabel="Forget"
      onConfirm={onForget}
      size={size}
    />
  );
}

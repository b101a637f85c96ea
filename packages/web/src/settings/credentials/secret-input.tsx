import { fieldProps, type FieldIds } from "../../ui/page-kit.js";

/** A secret typed once (a credential, a bot token): masked, never autofilled or spell-checked; Enter stores it. */
export function SecretInput({
  ids,
  value,
  onChange,
  onEnter,
  placeholder,
}: {
  ids: FieldIds;
  value: string;
  onChange: (value: string) => void;
  onEnter: () => void;
  placeholder?: string;
}) {
  return (
    <input
      {...fieldProps(ids)}
      className="input mono"
      type="password"
      value={value}
      autoComplete="new-password"
      spellCheck={false}
      placeholder={placeholder}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") (e.preventDefault(), onEnter());
      }}
    />
  );
}

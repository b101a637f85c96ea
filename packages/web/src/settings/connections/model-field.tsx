import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { Field, fieldProps } from "../../ui/page-kit.js";
import { plural } from "../../ui/plural.js";

interface Target {
  wire: string;
  base_url: string | null;
  credential_ref: string | null;
}

/**
 * Free-text model id with the provider's models as suggestions, listed lazily on first
 * focus. An empty list shows the daemon's reason; typing an id always works.
 */
export function ModelField({ target, value, onChange }: { target: Target; value: string; onChange: (model: string) => void }) {
  const settings = useSettingsApi();
  const listId = useId();
  const [wanted, setWanted] = useState(false);
  const models = useQuery({
    queryKey: ["settings", "models", target.wire, target.base_url, target.credential_ref],
    queryFn: () => settings.listModels(target),
    enabled: wanted && !!target.wire,
    staleTime: 60_000,
    retry: false,
  });
  const list = models.data?.models ?? [];
  const hint = models.isFetching
    ? "Loading models…"
    : models.error
      ? `Could not list models (${models.error.message}); type a model id.`
      : models.data && list.length === 0
        ? `${models.data.message} Type a model id.`
        : models.data
          ? `${plural(list.length, "model")} offered by the provider; or type one.`
          : "Type a model id, or focus to list the provider's models.";
  return (
    <Field label="Model" hint={hint}>
      {(ids) => (
        <>
          <input
            {...fieldProps(ids)}
            className="input mono"
            role="combobox"
            aria-expanded={false}
            aria-autocomplete="list"
            list={listId}
            value={value}
            required
            spellCheck={false}
            onFocus={() => setWanted(true)}
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id={listId}>
            {list.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}

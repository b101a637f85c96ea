import { useEffect, useId, useState } from "react";
import { useAgentModels } from "../../api/queries.js";

interface Props {
  /** Whose models to suggest; null while no agent is picked (nothing is suggested). */
  readonly agentKey: string | null;
  readonly value: string | null;
  readonly onCommit: (model: string | null) => void;
  readonly hint?: string;
  readonly disabled?: boolean;
}

/**
 * Free-text model with the agent's own suggestions (GET /chat/agents/{agent}/models: what the
 * agent lists, then models recently used with it — never another agent's); blank inherits the
 * agent's default. Enter or blur commits, Esc reverts.
 */
export function ModelCombobox({ agentKey, value, onCommit, hint, disabled }: Props) {
  const [text, setText] = useState(value ?? "");
  const listId = useId();
  const hintId = useId();
  const models = useAgentModels(agentKey);
  useEffect(() => setText(value ?? ""), [value]);
  const commit = () => {
    const next = text.trim() || null;
    if (next !== (value ?? null)) onCommit(next);
  };
  const reason = models.data?.reason ?? null;
  const described = [hint, reason && `Suggestions are recent models only: ${reason}`].filter(Boolean).join(". ");
  return (
    <label className="model-box" title={reason ? `Suggestions are recent models only: ${reason}` : undefined}>
      <span className="model-label" aria-hidden="true">
        Model
      </span>
      <input
        className="input model-input"
        role="combobox"
        aria-label="Model"
        aria-describedby={described ? hintId : undefined}
        aria-expanded={false}
        list={listId}
        placeholder="Agent's default"
        value={text}
        spellCheck={false}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          } else if (e.key === "Escape") setText(value ?? "");
        }}
      />
      <datalist id={listId}>
        {(models.data?.models ?? []).map((m) => (
          <option key={m.id} value={m.id} label={m.label && m.label !== m.id ? m.label : m.source === "recent" ? "recently used" : undefined} />
        ))}
      </datalist>
      {described && (
        <span id={hintId} className="sr-only">
          {described}
        </span>
      )}
    </label>
  );
}

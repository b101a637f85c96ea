import { useEffect, useId, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ConversationListOut, MessageListOut } from "@coffer/protocol";

/** Models this page has seen (conversation overrides and the models replies ran on): the suggestions. */
function useKnownModels(): string[] {
  const client = useQueryClient();
  const seen = new Set<string>();
  for (const [, data] of client.getQueriesData<{ pages: ConversationListOut[] }>({ queryKey: ["conversations"] })) {
    for (const p of data?.pages ?? []) for (const c of p.conversations) if (c.agent_model) seen.add(c.agent_model);
  }
  for (const [, data] of client.getQueriesData<{ pages: MessageListOut[] }>({ queryKey: ["messages"] })) {
    for (const p of data?.pages ?? []) for (const m of p.messages) if (m.model_id) seen.add(m.model_id);
  }
  return [...seen].sort();
}

interface Props {
  readonly value: string | null;
  readonly onCommit: (model: string | null) => void;
  readonly hint?: string;
}

/** Free-text model with suggestions; blank inherits the agent's default. Enter or blur commits, Esc reverts. */
export function ModelCombobox({ value, onCommit, hint }: Props) {
  const [text, setText] = useState(value ?? "");
  const listId = useId();
  const hintId = useId();
  const models = useKnownModels();
  useEffect(() => setText(value ?? ""), [value]);
  const commit = () => {
    const next = text.trim() || null;
    if (next !== (value ?? null)) onCommit(next);
  };
  return (
    <span className="model-box">
      <input
        className="input model-input"
        role="combobox"
        aria-label="Model"
        aria-describedby={hint ? hintId : undefined}
        aria-expanded={false}
        list={listId}
        placeholder="Default (inherit)"
        value={text}
        spellCheck={false}
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
        {models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {hint && (
        <span id={hintId} className="sr-only">
          {hint}
        </span>
      )}
    </span>
  );
}

import type { Question, QuestionAnswer } from "@coffer/protocol";
import { useId, useState } from "react";

interface Props {
  readonly questionId: string;
  readonly questions: readonly Question[];
  /** Sends the answers; rejects with a message to show (e.g. another surface answered first). */
  readonly onAnswer: (answers: QuestionAnswer[]) => Promise<void>;
}

/**
 * The agent's question, waiting for the owner: options as toggle buttons (one, or any with
 * multi-select), an own-words field when the agent allows it, one Send for all questions.
 * A card that asks one single-choice question answers in one tap: its option buttons send at
 * once, and Send is only for own words. Every control is a native button or input, so Tab
 * reaches each and Enter/Space works.
 */
export function QuestionCard({ questionId, questions, onAnswer }: Props) {
  const [selected, setSelected] = useState<string[][]>(() => questions.map(() => []));
  const [texts, setTexts] = useState<string[]>(() => questions.map(() => ""));
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  const oneTap = questions.length === 1 && !questions[0]!.multi_select && questions[0]!.options.length > 0;

  const toggle = (qi: number, label: string): void => {
    setSelected((all) =>
      all.map((sel, i) => {
        if (i !== qi) return sel;
        if (sel.includes(label)) return sel.filter((l) => l !== label);
        return questions[qi]!.multi_select ? [...sel, label] : [label];
      }),
    );
  };
  // An optional question (an MCP form's field outside its required list) may stay empty.
  const complete = questions.every((q, i) => q.optional || selected[i]!.length > 0 || texts[i]!.trim().length > 0);

  const send = async (picked: string[][]): Promise<void> => {
    setSending(true);
    setError(null);
    try {
      await onAnswer(questions.map((_, i) => ({ selected: picked[i]!, ...(texts[i]!.trim() ? { text: texts[i]!.trim() } : {}) })));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setSending(false);
    }
  };
  const submit = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault();
    if (!complete || sending) return;
    await send(selected);
  };
  const pick = (qi: number, label: string): void => {
    if (!oneTap) return toggle(qi, label);
    if (sending) return;
    setSelected([[label]]);
    void send([[label]]);
  };

  return (
    <form className="question-card" aria-label="The agent asks you" data-question-id={questionId} onSubmit={(e) => void submit(e)}>
      <div className="question-state" role="status">
        Waiting for you{oneTap && <span className="question-hint"> · choose an option to answer</span>}
      </div>
      {questions.map((q, qi) => {
        const labelId = `${baseId}-q${qi}`;
        return (
          <fieldset key={qi} className="question" aria-labelledby={labelId}>
            <legend id={labelId}>
              {q.header && <span className="question-header">{q.header}</span>} {q.text}
              {q.multi_select && <span className="question-hint"> (choose any)</span>}
              {q.optional && <span className="question-hint"> (optional)</span>}
            </legend>
            <div className="question-options">
              {q.options.map((o) => {
                const on = selected[qi]!.includes(o.label);
                return (
                  <button
                    key={o.label}
                    type="button"
                    className={`btn question-option ${on ? "btn-primary" : ""}`}
                    aria-pressed={on}
                    title={o.description || undefined}
                    disabled={sending}
                    onClick={() => pick(qi, o.label)}
                  >
                    {o.label}
                    {o.description && <span className="question-option-desc">{o.description}</span>}
                  </button>
                );
              })}
            </div>
            {q.allow_free_text && (
              <input
                className="input question-text"
                aria-label={`Your own answer: ${q.text}`}
                placeholder={q.options.length ? "Or write your own…" : "Your answer…"}
                value={texts[qi]}
                disabled={sending}
                onChange={(e) => setTexts((all) => all.map((t, i) => (i === qi ? e.target.value : t)))}
              />
            )}
          </fieldset>
        );
      })}
      <div className="question-actions">
        {/* One tap answers a single choice; Send appears once the owner writes words of their own. */}
        {(!oneTap || texts[0]!.trim().length > 0) && (
          <button type="submit" className="btn btn-primary btn-sm" disabled={!complete || sending}>
            {sending ? "Sending…" : "Send answer"}
          </button>
        )}
        {error && (
          <span className="text-danger" role="alert">
            {error}
          </span>
        )}
      </div>
    </form>
  );
}

import { answerText, surfaceName, type QuestionBlock } from "@coffer/protocol";
import { Icon } from "../../ui/icons.js";

/**
 * A question the agent asked, as the thread keeps it once it is closed (or while a reply is
 * shown without its live link): each question with the answer it got, and from where, so an
 * answered question never vanishes. `lost`: this page's own answer came second.
 */
export function AnsweredQuestion({ block, lost = false }: { block: QuestionBlock; lost?: boolean }) {
  const answered = block.state === "answered";
  const by = surfaceName(block.by);
  const state = answered ? `You answered from ${by}` : block.state === "cancelled" ? "Not answered — the turn stopped first" : "Waiting for your answer";
  return (
    <section className={`question-trace question-trace-${block.state}`} aria-label="The agent asked you" data-question-id={block.question_id}>
      <dl className="question-trace-list">
        {block.questions.map((q, i) => {
          const answer = block.answers?.[i];
          return (
            <div key={i} className="question-trace-item">
              <dt>
                {q.header && <span className="question-header">{q.header}</span>} {q.text}
              </dt>
              {answered && <dd className="question-trace-answer">{answer ? answerText(answer) : "(left empty)"}</dd>}
            </div>
          );
        })}
      </dl>
      <p className="question-trace-state">
        <Icon name={answered ? "check" : block.state === "cancelled" ? "square" : "spinner"} size={12} />
        {state}
      </p>
      {lost && answered && (
        <p className="question-trace-lost" role="status">
          Your answer here was not sent: {by} answered first.
        </p>
      )}
    </section>
  );
}

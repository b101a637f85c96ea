import { retryingLabel, type ContentBlock, type MessageOut, type RetryingEvent } from "@coffer/protocol";
import { memo, useEffect, useMemo, useState } from "react";
import { AgentMark, Icon } from "../../ui/icons.js";
import type { TurnOutcome } from "../live/apply-event.js";
import { toSegments } from "../live/thread-items.js";
import { useLive, useLiveStore } from "../live/use-live.js";
import { useApi } from "../../api/api-context.js";
import { QuestionCard } from "./question-card.js";
import { Markdown } from "./markdown.js";
import { MessageFooter } from "./message-footer.js";
import { ToolCard } from "./tool-card.js";

export function UserBubble({ text, note }: { text: string; note?: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const long = text.split("\n").length > 12;
  return (
    <div className="msg-user">
      <div className={`bubble ${long && !open ? "bubble-folded" : ""}`}>{text}</div>
      {long && (
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => setOpen((o) => !o)}>
          {open ? "Show less" : "Show more"}
        </button>
      )}
      {note}
    </div>
  );
}

function userText(m: MessageOut): string {
  return m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function AssistantBody({ blocks, phase, outcome }: { blocks: readonly ContentBlock[]; phase: "streaming" | "complete" | "failed"; outcome?: TurnOutcome }) {
  const segments = useMemo(() => toSegments(blocks), [blocks]);
  const lastText = segments.length - 1;
  return (
    <>
      {segments.map((s, i) =>
        s.kind === "text" ? (
          <Markdown key={i} text={s.text} streaming={phase === "streaming" && i === lastText} />
        ) : (
          <ToolCard
            key={s.use.tool_use_id}
            use={s.use}
            result={s.result}
            status={s.result ? (s.result.error ? "failed" : "done") : phase === "streaming" ? "running" : outcome?.stopReason === "interrupted" ? "interrupted" : "failed"}
          />
        ),
      )}
    </>
  );
}

/** A persisted message, rendered once per message object (they are immutable). */
export const PersistedMessage = memo(function PersistedMessage({ message }: { message: MessageOut }) {
  // This session saw the turn end, or the row says how it ended (after a reload).
  const live = useLive((s) => s.view.outcomes[message.id]);
  const outcome = live ?? (message.stop_reason || message.error ? { stopReason: message.stop_reason, error: message.error } : undefined);
  if (message.role === "user") return <UserBubble text={userText(message)} />;
  return (
    <article className="msg-assistant" aria-label="Reply">
      <AssistantBody blocks={message.content} phase={message.status} outcome={outcome} />
      {message.status === "streaming" && <Thinking since={message.created_at} />}
      <MessageFooter
        model={message.model_id}
        promptTokens={message.prompt_tokens}
        completionTokens={message.completion_tokens}
        failed={message.status === "failed"}
        outcome={outcome}
      />
    </article>
  );
});

/** The reply being written now, read from the live store so the thread around it does not re-render. */
export function LiveReply({ assistantMessageId, agentKey }: { assistantMessageId: string; agentKey: string }) {
  // By reply, not by turn: a steered turn continues in a second reply under the same turn id.
  const turn = useLive((s) => s.view.turns.find((t) => t.assistantMessageId === assistantMessageId));
  const api = useApi();
  const store = useLiveStore();
  if (!turn) return null;
  const phase = turn.phase === "done" ? "complete" : turn.phase;
  const empty = turn.blocks.length === 0;
  const toolRunning = turn.blocks[turn.blocks.length - 1]?.type === "tool_use";
  return (
    <article className={`msg-assistant ${toolRunning ? "tool-running" : ""}`} aria-label="Reply" aria-busy={phase === "streaming"}>
      {empty && phase === "streaming" ? null : <AssistantBody blocks={turn.blocks} phase={phase} outcome={{ stopReason: turn.stopReason, error: turn.error }} />}
      {phase === "streaming" && turn.retrying ? (
        <Retrying retry={turn.retrying} agentKey={agentKey} />
      ) : (
        empty && phase === "streaming" && !turn.question && <Thinking since={turn.userMessage.created_at} agentKey={agentKey} />
      )}
      {turn.question && phase === "streaming" && (
        <QuestionCard
          key={turn.question.questionId}
          questionId={turn.question.questionId}
          questions={turn.question.questions}
          onAnswer={async (answers) => {
            await api.answer(store.conversationId, turn.question!.questionId, answers);
          }}
        />
      )}
      {phase !== "streaming" && (
        <MessageFooter
          model={turn.model}
          promptTokens={turn.promptTokens}
          completionTokens={turn.completionTokens}
          failed={phase === "failed"}
          outcome={{ stopReason: turn.stopReason, error: turn.error }}
        />
      )}
    </article>
  );
}

/** The agent is retrying the model API: say so (and why) rather than "Thinking". */
function Retrying({ retry, agentKey }: { retry: RetryingEvent; agentKey: string }) {
  return (
    <div className="thinking retrying" role="status" data-testid="retrying">
      <AgentMark agentKey={agentKey} />
      <span className="shimmer">{retryingLabel(retry)}</span>
    </div>
  );
}

function Thinking({ since, agentKey }: { since: string; agentKey?: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const secs = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  return (
    <div className="thinking">
      {agentKey ? <AgentMark agentKey={agentKey} /> : <Icon name="spinner" size={14} />}
      <span className="shimmer">Thinking{secs >= 3 ? ` · ${secs}s` : ""}</span>
    </div>
  );
}

import { retryingLabel, type AttachmentOut, type ContentBlock, type MessageOut, type QuestionAnswer, type RetryingEvent } from "@coffer/protocol";
import { memo, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { lazyPart } from "../../ui/lazy-part.js";
import { CopyButton } from "../../ui/copy-button.js";
import { AgentMarkOf } from "../../api/agent-glyph.js";
import { Icon } from "../../ui/icons.js";
import type { TurnOutcome } from "../live/apply-event.js";
import { toSegments } from "../live/thread-items.js";
import { useLive, useLiveStore } from "../live/use-live.js";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { AnsweredQuestion } from "./answered-question.js";
import { QuestionCard } from "./question-card.js";
import { Markdown } from "./reply-text.js";
import { MessageFooter } from "./message-footer.js";
import { replyMarkdown, useThreadActions } from "./thread-actions.js";
import { ToolCard } from "./tool-card.js";
// Its own chunk: most threads carry no files, and the first load stays within its budget.
const MessageAttachments = lazyPart(() => import("./message-attachments.js"));

/** A message's files (the owner's, or those the agent shared), from the lazy chunk (most messages have none). */
export function MessageFiles({ attachments }: { attachments: readonly AttachmentOut[] }) {
  return (
    <Suspense fallback={null}>
      <MessageAttachments attachments={attachments} />
    </Suspense>
  );
}

export function UserBubble({ text, note, editable = false, voice = false, schedule }: { text: string; note?: React.ReactNode; editable?: boolean; voice?: boolean; schedule?: { name: string } }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const actions = useThreadActions();
  const long = text.split("\n").length > 12;
  if (editing && actions) return <EditResend text={text} onSend={(t) => (actions.resend(t), setEditing(false))} onCancel={() => setEditing(false)} />;
  return (
    <div className="msg-user">
      {/* A files-only message has no words to show: its files (the note) are the message. */}
      {(text || voice || schedule) && (
        <div className={`bubble ${long && !open ? "bubble-folded" : ""}`}>
          {schedule && <ScheduledMark name={schedule.name} />}
          {voice && <VoiceMark />}
          {text}
        </div>
      )}
      {long && (
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => setOpen((o) => !o)}>
          {open ? "Show less" : "Show more"}
        </button>
      )}
      {note}
      {/* Copy and edit-and-resend work on words; a files-only message has none. */}
      {editable && actions && text && (
        <span className="msg-actions">
          <CopyButton text={text} label="Copy message" compact />
          <button type="button" className="icon-btn icon-btn-sm" aria-label="Edit and send as a new message" title="Edit and send as a new message" onClick={() => setEditing(true)}>
            <Icon name="pencil" size={14} />
          </button>
        </span>
      )}
    </div>
  );
}

/**
 * Edit-and-resend: the text goes as a NEW message (the original stays where it is, and so does
 * the reply it got); Enter sends, Shift+Enter is a new line, Esc cancels.
 */
function EditResend({ text, onSend, onCancel }: { text: string; onSend: (text: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState(text);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const send = () => value.trim() && onSend(value);
  return (
    <div className="msg-user">
      <div className="edit-resend">
        <textarea
          ref={area}
          aria-label="Edit message"
          value={value}
          rows={Math.min(12, Math.max(2, value.split("\n").length))}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.nativeEvent.isComposing) return;
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              send();
            } else if (e.key === "Escape") {
              e.preventDefault();
              onCancel();
            }
          }}
        />
        <div className="edit-resend-bar">
          <span className="hint">Sends a new message; this one stays</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={send} disabled={!value.trim()}>
            Send as new message
          </button>
        </div>
      </div>
    </div>
  );
}

/** Copy the reply's markdown; Retry re-sends the owner's last message when this, the last reply, failed or was stopped. */
function ReplyActions({ id, blocks, ended }: { id: string; blocks: readonly ContentBlock[]; ended: boolean }) {
  const actions = useThreadActions();
  const hasText = blocks.some((b) => b.type === "text" && b.text.trim());
  const canRetry = ended && actions !== null && actions.lastReplyId === id && actions.lastUserText !== null;
  if (!hasText && !canRetry) return null;
  return (
    <span className="msg-actions">
      {hasText && <CopyButton text={() => replyMarkdown(blocks)} label="Copy reply" compact />}
      {canRetry && (
        <button type="button" className="btn btn-ghost btn-xs" title="Send your last message again as a new turn" onClick={() => actions.resend(actions.lastUserText!)}>
          <Icon name="refresh" size={12} />
          Retry
        </button>
      )}
    </span>
  );
}

function userText(m: MessageOut): string {
  return m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** Answering from this page: the card's send, and which questions this page lost the race for. */
interface Answering {
  readonly onAnswer: ((questionId: string, answers: QuestionAnswer[]) => Promise<void>) | null;
  readonly lost: readonly string[];
}

function AssistantBody({ blocks, phase, outcome, answering }: { blocks: readonly ContentBlock[]; phase: "streaming" | "complete" | "failed"; outcome?: TurnOutcome; answering?: Answering }) {
  const segments = useMemo(() => toSegments(blocks), [blocks]);
  const lastText = segments.length - 1;
  return (
    <>
      {segments.map((s, i) =>
        s.kind === "text" ? (
          <Markdown key={i} text={s.text} streaming={phase === "streaming" && i === lastText} />
        ) : s.kind === "notice" ? (
          // Coffer's own word in the thread (a lost agent session restarted with the conversation so far).
          <p key={`notice-${i}`} className="msg-note msg-notice" role="note">
            <Icon name="refresh" size={12} />
            {s.block.text}
          </p>
        ) : s.kind === "question" ? (
          // Open on a live reply: the card to answer; otherwise the question with its answer, kept.
          s.block.state === "open" && answering?.onAnswer && phase === "streaming" ? (
            <QuestionCard
              key={s.block.question_id}
              questionId={s.block.question_id}
              questions={s.block.questions}
              onAnswer={(answers) => answering.onAnswer!(s.block.question_id, answers)}
            />
          ) : (
            <AnsweredQuestion key={s.block.question_id} block={s.block} lost={answering?.lost.includes(s.block.question_id) ?? false} />
          )
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
  const lost = useLive((s) => s.view.lostAnswers);
  const outcome = live ?? (message.stop_reason || message.error ? { stopReason: message.stop_reason, error: message.error } : undefined);
  const files = message.attachments?.length ? <MessageFiles attachments={message.attachments} /> : null;
  if (message.role === "user") {
    const note = message.steered || files ? <>{files}{message.steered && <SteeredNote />}</> : undefined;
    return <UserBubble text={userText(message)} note={note} voice={message.voice === true} {...(message.schedule ? { schedule: message.schedule } : {})} editable />;
  }
  const ended = message.status === "failed" || outcome?.stopReason === "interrupted";
  return (
    <article className="msg-assistant" aria-label="Reply">
      <AssistantBody blocks={message.content} phase={message.status} outcome={outcome} answering={{ onAnswer: null, lost }} />
      {files}
      {message.status === "streaming" && <Thinking since={message.created_at} />}
      <MessageFooter
        model={message.model_id}
        promptTokens={message.prompt_tokens}
        completionTokens={message.completion_tokens}
        failed={message.status === "failed"}
        outcome={outcome}
        actions={message.status === "streaming" ? null : <ReplyActions id={message.id} blocks={message.content} ended={ended} />}
      />
    </article>
  );
});

/**
 * Before the text of a message that came from a recording (a phone's voice note): the text is
 * its transcript. The 🎤 mark is drawn as an icon, not the emoji, so it shows on a system
 * without an emoji font too.
 */
function VoiceMark() {
  return (
    <span className="bubble-voice" role="img" aria-label="voice note" title="A voice note: this is its transcript">
      <Icon name="mic" size={14} />
    </span>
  );
}

/** Before the text of a message a schedule sent (the CLI's ⏰): which schedule, on hover. */
function ScheduledMark({ name }: { name: string }) {
  return (
    <span className="bubble-voice" role="img" aria-label="scheduled" title={`Sent by the schedule “${name}”`}>
      <Icon name="clock" size={14} />
    </span>
  );
}

/** Under a message steered into a running turn: it sits where the turn took it, not at a turn's start. */
function SteeredNote() {
  return (
    <span className="msg-note msg-steered" title="Sent into the running turn: the agent read it at this point">
      <Icon name="cornerDownRight" size={12} />
      Steered
    </span>
  );
}

/** The reply being written now, read from the live store so the thread around it does not re-render. */
export function LiveReply({ assistantMessageId, agentKey }: { assistantMessageId: string; agentKey: string }) {
  // By reply, not by turn: a steered turn continues in a second reply under the same turn id.
  const turn = useLive((s) => s.view.turns.find((t) => t.assistantMessageId === assistantMessageId));
  // The reply before a steer still runs its tool: this one has not begun, so it shows nothing yet.
  const behindTool = useLive((s) => s.view.turns.some((t) => t.waitsOnTool && t.phase === "streaming" && t.assistantMessageId !== assistantMessageId));
  const api = useApi();
  const store = useLiveStore();
  const lost = useLive((s) => s.view.lostAnswers);
  const answering = useMemo<Answering>(
    () => ({
      lost,
      onAnswer: async (questionId, answers) => {
        try {
          await api.answer(store.conversationId, questionId, answers);
        } catch (err) {
          // Another surface answered first: the card says who and what ("Answered from Telegram: Blue").
          if (err instanceof ApiError && err.code === "QUESTION_ALREADY_ANSWERED") store.lostAnswer(questionId);
          throw err;
        }
      },
    }),
    [api, store, lost],
  );
  if (!turn || turn.removed) return null;
  const phase = turn.phase === "done" ? "complete" : turn.phase;
  const empty = turn.blocks.length === 0;
  if (empty && phase === "streaming" && behindTool) return null;
  const toolRunning = turn.blocks[turn.blocks.length - 1]?.type === "tool_use";
  return (
    <article className={`msg-assistant ${toolRunning ? "tool-running" : ""}`} aria-label="Reply" aria-busy={phase === "streaming"}>
      {empty && phase === "streaming" ? null : <AssistantBody blocks={turn.blocks} phase={phase} outcome={{ stopReason: turn.stopReason, error: turn.error }} answering={answering} />}
      {turn.attachments.length > 0 && <MessageFiles attachments={turn.attachments} />}
      {phase === "streaming" && turn.retrying ? (
        <Retrying retry={turn.retrying} agentKey={agentKey} />
      ) : (
        empty && phase === "streaming" && !turn.question && <Thinking since={turn.userMessage.created_at} agentKey={agentKey} />
      )}
      {phase !== "streaming" && (
        <MessageFooter
          model={turn.model}
          promptTokens={turn.promptTokens}
          completionTokens={turn.completionTokens}
          failed={phase === "failed"}
          outcome={{ stopReason: turn.stopReason, error: turn.error }}
          actions={<ReplyActions id={turn.assistantMessageId} blocks={turn.blocks} ended={phase === "failed" || turn.stopReason === "interrupted"} />}
        />
      )}
    </article>
  );
}

/** The agent is retrying the model API: say so (and why) rather than "Thinking". */
function Retrying({ retry, agentKey }: { retry: RetryingEvent; agentKey: string }) {
  return (
    <div className="thinking retrying" role="status" data-testid="retrying">
      <AgentMarkOf agentKey={agentKey} />
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
      {agentKey ? <AgentMarkOf agentKey={agentKey} /> : <Icon name="spinner" size={14} />}
      <span className="shimmer">Thinking{secs >= 3 ? ` · ${secs}s` : ""}</span>
    </div>
  );
}

import { useEffect, useId, useRef, useState } from "react";
import { Icon } from "../../ui/icons.js";

export interface ComposerProps {
  readonly agentName: string;
  readonly running: boolean;
  readonly stopping: boolean;
  readonly paused: boolean;
  /** Only while a draft is being created. */
  readonly disabled?: boolean;
  readonly runningSince?: string | null;
  /** Text pulled back from the queue for editing; a new nonce replaces what is typed. */
  readonly pull?: { readonly text: string; readonly nonce: number } | null;
  readonly onSend: (text: string) => void;
  readonly onStop: () => void;
  /** ↑ in an empty composer: pull the last queued message back. */
  readonly onPullLast?: () => void;
}

function elapsed(since: string | null | undefined, now: number): string {
  if (!since) return "";
  const s = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  return ` · ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The composer never locks: while a turn runs, Enter queues; Stop stays one click (or Esc) away. */
export function Composer({ agentName, running, stopping, paused, disabled, runningSince, pull, onSend, onStop, onPullLast }: ComposerProps) {
  const [text, setText] = useState("");
  const [now, setNow] = useState(() => Date.now());
  const area = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  useEffect(() => {
    if (!pull) return;
    setText(pull.text);
    area.current?.focus();
  }, [pull]);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [running]);

  const hasText = text.trim().length > 0;
  const send = () => {
    if (!hasText || disabled) return;
    onSend(text);
    setText("");
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    // Never send on the Enter that confirms an IME composition.
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      send();
    } else if (e.key === "Escape" && running && !hasText) {
      e.preventDefault();
      onStop();
    } else if (e.key === "ArrowUp" && !text && onPullLast) {
      e.preventDefault();
      onPullLast();
    }
  };

  const status = running
    ? hasText
      ? "Runs after the current turn"
      : `Working${elapsed(runningSince, now)}`
    : paused
      ? "Sending resumes the queue"
      : "Enter to send · Shift+Enter for a new line";

  let primary: React.ReactNode;
  if (stopping) {
    primary = (
      <button type="button" className="send-btn" aria-label="Stopping" disabled>
        <Icon name="spinner" />
      </button>
    );
  } else if (running && !hasText) {
    primary = (
      <button type="button" className="send-btn send-stop" aria-label="Stop" title="Stop (Esc)" onClick={onStop}>
        <Icon name="square" />
      </button>
    );
  } else {
    const label = running ? "Queue message" : "Send";
    primary = (
      <button
        type="button"
        className="send-btn"
        aria-label={label}
        title={label}
        aria-disabled={!hasText || disabled}
        onClick={send}
      >
        <Icon name="arrowUp" />
      </button>
    );
  }

  return (
    <div className={`composer ${disabled ? "composer-disabled" : ""}`}>
      <textarea
        ref={area}
        className="composer-input"
        aria-label={`Message ${agentName}`}
        aria-describedby={hintId}
        placeholder={`Message ${agentName}…`}
        rows={1}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-bar">
        <span id={hintId} className="composer-status">
          {running && !hasText && <span className="running-dot" aria-hidden="true" />}
          {status}
        </span>
        <span className="composer-actions">
          {running && hasText && !stopping && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onStop}>
              <Icon name="square" size={12} />
              Stop
            </button>
          )}
          {primary}
        </span>
      </div>
    </div>
  );
}

import { holdLabel, type AttachmentOut, type QueueHold } from "@coffer/protocol";
import { QueryClientContext } from "@tanstack/react-query";
import { Suspense, useContext, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { lazyPart } from "../../ui/lazy-part.js";
import { Icon } from "../../ui/icons.js";
import { useIsTouch } from "../../ui/use-media-query.js";
import "./composer-tools.css";
import { AttachButton } from "./attach-button.js";
import { droppedFiles, pastedName } from "./dropped-files.js";
import { loadDraft, saveDraft } from "./draft-store.js";
import { insertTranscript } from "./insert-transcript.js";
import { useComposerFiles } from "./use-composer-files.js";

/** The microphone (recorder, its status and styles) loads after the Chat: the first load's budget is tight. */
const MicButton = lazyPart(() => import("./mic-button.js").then((m) => ({ default: m.MicButton })));
// Its own chunk, fetched with the first file: most messages carry none, and the first load is on a budget.
const loadChips = () => import("./file-chips.js");
const FileChips = lazyPart(loadChips);
// Send later (a clock by the paperclip): its own chunk, as the microphone's.
const LaterButton = lazyPart(() => import("./later-controls.js").then((m) => ({ default: m.LaterButton })));

/** A queued message open for editing. Each edit is a new object; the server queue is untouched until it is saved. */
export interface EditingMessage {
  readonly id: string;
  readonly text: string;
}

export interface ComposerProps {
  readonly agentName: string;
  readonly running: boolean;
  readonly stopping: boolean;
  readonly paused: boolean;
  readonly hold?: QueueHold | null;
  /** Only while a draft is being created, or when no agent can run. */
  readonly disabled?: boolean;
  /** What the status line says while disabled (why nothing can be sent). */
  readonly disabledHint?: string;
  readonly runningSince?: string | null;
  /** The agent waits for the owner's answer to its question (the card above). */
  readonly waitingForOwner?: boolean;
  /** Text (and files) to put back in the box (a send that failed); a new nonce replaces what is typed. */
  readonly pull?: { readonly text: string; readonly nonce: number; readonly files?: readonly AttachmentOut[] } | null;
  /** Keep unsent text across reloads under this key (a conversation id, or the new-conversation key). */
  readonly draftKey?: string;
  /** A queued message being edited: its text replaces the box (the draft is set aside); Enter saves, Esc cancels. */
  readonly editing?: EditingMessage | null;
  /** `files`: the uploaded attachments, in order; with files, `text` may be empty (a files-only message). */
  readonly onSend: (text: string, files: readonly AttachmentOut[]) => void;
  /** The owner typed (the draft's pre-warm hint, use-prewarm.ts). */
  readonly onTyping?: (text: string) => void;
  /** While a turn runs: put the text into that turn instead of queueing it (Ctrl/Cmd+Enter, or the Steer button). */
  readonly onSteer?: (text: string) => void;
  readonly onStop: () => void;
  /** ↑ in an empty composer: open the last queued message for editing. */
  readonly onPullLast?: () => void;
  readonly onSaveEdit?: (text: string) => void;
  readonly onCancelEdit?: () => void;
  /** Each new value puts the focus in the box (composer-focus.ts: a navigation asked for it). */
  readonly focusRequest?: string | null;
  /** The conversation "Send later" schedules into (absent: a new conversation's box offers none). */
  readonly laterIn?: string;
}

function elapsed(since: string | null | undefined, now: number): string {
  if (!since) return "";
  const s = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  return ` · ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The composer never locks: while a turn runs, Enter queues and Ctrl/Cmd+Enter (or Steer)
 * puts the text into the running turn; Stop stays one click (or Esc) away.
 */
export function Composer(props: ComposerProps) {
  const { agentName, running, stopping, paused, hold = null, disabled, runningSince, pull, draftKey, editing, onSend, onStop, onPullLast } = props;
  const [text, setText] = useState(() => (draftKey ? loadDraft(draftKey) : ""));
  const files = useComposerFiles(draftKey);
  const [dropping, setDropping] = useState(false);
  const touch = useIsTouch();
  // The microphone asks the daemon (through the page's query cache) whether voice is on; a box
  // rendered on its own, outside the page's providers (the unit tests), goes without it.
  const voice = useContext(QueryClientContext) !== undefined;
  const [now, setNow] = useState(() => Date.now());
  const area = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  // What was typed before an edit began; it comes back when the edit is saved or cancelled.
  const setAside = useRef<string | null>(null);
  const current = useRef(text);
  current.current = text;
  const change = (value: string) => {
    setText(value);
    props.onTyping?.(value);
    // An edit's text belongs to the queued message, not to the draft: the draft stays as it was.
    if (draftKey && !editing) saveDraft(draftKey, value);
  };
  // The draft as stored when this box appears, not only when it first rendered: text typed into
  // the new-chat box while this conversation's page was being rendered is moved here on the
  // way (DraftPage), after this box read its draft.
  useLayoutEffect(() => {
    if (!draftKey) return;
    const stored = loadDraft(draftKey);
    if (stored !== current.current) setText(stored);
    // Only on mount: later, the box is the truth and storage follows it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Before paint, so a key pressed right after the navigation already finds the focus here; a
  // box still disabled (the agents not listed yet) takes it once it can.
  useLayoutEffect(() => {
    const el = area.current;
    if (!props.focusRequest || !el || disabled) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [props.focusRequest, disabled]);
  useEffect(() => {
    if (!pull) return;
    setText(pull.text);
    if (draftKey) saveDraft(draftKey, pull.text);
    if (pull.files?.length) files.restore(pull.files);
    area.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new pull puts things back
  }, [pull, draftKey]);
  useEffect(() => {
    if (editing) {
      if (setAside.current === null) setAside.current = current.current;
      setText(editing.text);
      area.current?.focus();
    } else if (setAside.current !== null) {
      setText(setAside.current);
      setAside.current = null;
    }
  }, [editing]);
  // The file code's chunks are fetched once the box is up (not in the first load, but before the
  // first file): a file attached while the daemon cannot be reached still gets its chip and its reason.
  useEffect(() => {
    void Promise.all([loadChips(), import("./file-intake.js"), import("../../api/xhr-upload.js")]).catch(() => undefined);
  }, []);
  // A file dropped beside the composer would make the browser open it in place of the Chat
  // (the draft, the thread, all gone): while the composer is on screen, a stray file drop does nothing.
  useEffect(() => {
    const stray = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes("Files") && !e.defaultPrevented) e.preventDefault();
    };
    window.addEventListener("dragover", stray);
    window.addEventListener("drop", stray);
    return () => {
      window.removeEventListener("dragover", stray);
      window.removeEventListener("drop", stray);
    };
  }, []);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [running]);

  // A transcript joins the text at the caret, for review: the microphone never sends by itself.
  const insert = (transcript: string) => {
    const el = area.current;
    const end = current.current.length;
    const at = insertTranscript(current.current, el?.selectionStart ?? end, el?.selectionEnd ?? end, transcript);
    change(at.value);
    requestAnimationFrame(() => (el?.focus(), el?.setSelectionRange(at.caret, at.caret)));
  };

  const hasText = text.trim().length > 0;
  // An edit changes a queued message's text only: the draft's files wait, unseen, until it ends.
  const attached = editing ? 0 : files.files.length;
  // A message may be files only; it waits for every upload (a failed one is retried or removed first).
  const hasContent = hasText || (!editing && files.ready.length > 0);
  const blocked = !editing && (files.uploading > 0 || files.failed);
  // Files never steer (the daemon queues a steer that carries them: decisions, "The composer takes files").
  const canSteer = running && !stopping && !editing && Boolean(props.onSteer) && attached === 0;
  const steer = () => {
    if (!hasText || disabled || !canSteer) return;
    props.onSteer!(text);
    setText("");
    if (draftKey) saveDraft(draftKey, "");
  };
  const send = () => {
    if (!hasContent || disabled || blocked) return;
    if (editing) {
      props.onSaveEdit?.(text);
      return; // the parent ends the edit; the set-aside draft comes back then
    }
    onSend(text.trim() ? text : "", files.ready);
    setText("");
    files.clear();
    if (draftKey) saveDraft(draftKey, "");
  };
  const attach = (picked: File[], folders: string[] = []) => void files.add(picked, folders);
  const onPaste = (e: React.ClipboardEvent<HTMLTextAreaElement>) => {
    // Text wins: a copy from a document can carry a picture of itself beside its words.
    if (editing || e.clipboardData.getData("text/plain") || e.clipboardData.files.length === 0) return;
    e.preventDefault();
    attach([...e.clipboardData.files].map((f) => pastedName(f)));
  };
  // The whole composer is the drop target while files are dragged over it.
  const carriesFiles = (e: React.DragEvent) => !editing && !disabled && [...e.dataTransfer.types].includes("Files");
  const drag = {
    onDragOver: (e: React.DragEvent<HTMLDivElement>) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      setDropping(true);
    },
    onDragLeave: (e: React.DragEvent<HTMLDivElement>) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
    },
    onDrop: (e: React.DragEvent<HTMLDivElement>) => {
      setDropping(false);
      if (!carriesFiles(e)) return;
      e.preventDefault();
      const dropped = droppedFiles(e.dataTransfer);
      attach(dropped.files, dropped.folders);
    },
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    // Never send on the Enter that confirms an IME composition.
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && canSteer) {
      e.preventDefault();
      steer();
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      send();
    } else if (e.key === "Escape" && editing) {
      e.preventDefault();
      props.onCancelEdit?.();
    } else if (e.key === "Escape" && !e.shiftKey && running && !hasContent) {
      e.preventDefault();
      onStop();
    } else if (e.key === "ArrowUp" && !text && !editing && onPullLast) {
      e.preventDefault();
      onPullLast();
    }
  };

  // A phone has no Shift, Ctrl or Esc to press: its hints name the buttons instead (issue 22, G).
  const status = disabled && props.disabledHint
    ? props.disabledHint
    : editing
    ? touch
      ? "Editing a queued message · saving keeps its place"
      : "Editing a queued message · Enter saves it in its place · Esc cancels"
    : blocked
    ? files.failed
      ? "A file did not upload · retry or remove it to send"
      : `Uploading ${files.uploading === 1 ? "a file" : `${files.uploading} files`}… Send waits for it`
    : running
    ? hasContent
      ? attached > 0
        ? touch
          ? "Send queues it with its files after this turn"
          : "Enter queues it with its files after this turn · files cannot steer"
        : canSteer
        ? touch
          ? "Send queues it after this turn · Steer puts it into this turn"
          : "Enter queues it after this turn · Ctrl/⌘+Enter steers it into this turn"
        : "Runs after the current turn"
      : props.waitingForOwner
        ? "Waiting for you · answer the agent's question above"
        : `Working${elapsed(runningSince, now)}`
    : hold
      ? `${holdLabel(hold)} · new messages wait for it`
      : paused
      ? "Sending resumes the queue"
      : touch
        ? "Tap the arrow to send"
        : "Enter to send · Shift+Enter for a new line";

  let primary: React.ReactNode;
  if (stopping) {
    primary = (
      <button type="button" className="send-btn" aria-label="Stopping" disabled>
        <Icon name="spinner" />
      </button>
    );
  } else if (running && !hasContent && !blocked) {
    primary = (
      <button type="button" className="send-btn send-stop" aria-label="Stop" title="Stop (Esc)" onClick={onStop}>
        <Icon name="square" />
      </button>
    );
  } else {
    const label = editing ? "Save edit" : running ? "Queue message" : "Send";
    primary = (
      <button
        type="button"
        className="send-btn"
        aria-label={label}
        title={label}
        aria-disabled={!hasContent || disabled || blocked}
        onClick={send}
      >
        <Icon name="arrowUp" />
      </button>
    );
  }

  return (
    <div className={`composer ${disabled ? "composer-disabled" : ""}`} data-dropping={dropping || undefined} {...drag}>
      {dropping && (
        <div className="composer-drop" aria-hidden="true">
          <Icon name="paperclip" /> Drop to attach
        </div>
      )}
      {!editing && (files.files.length > 0 || files.refusals.length > 0) && (
        <Suspense fallback={null}>
          <FileChips files={files} />
        </Suspense>
      )}
      <textarea
        ref={area}
        className="composer-input"
        aria-label={`Message ${agentName}`}
        aria-describedby={hintId}
        placeholder={`Message ${agentName}…`}
        rows={1}
        value={text}
        disabled={disabled}
        onChange={(e) => change(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      <div className="composer-bar">
        {/* The toolbar, left of the status: attach (the microphone sits by Send, where a thumb records). */}
        <span className="composer-tools">
          {!editing && <AttachButton disabled={disabled} onFiles={attach} />}
          {!editing && props.laterIn && (
            <Suspense fallback={null}>
              <LaterButton conversationId={props.laterIn} agentName={agentName} text={text} files={files.ready} disabled={!hasContent || !!disabled || blocked} onSent={() => (change(""), files.clear())} />
            </Suspense>
          )}
        </span>
        <span id={hintId} className="composer-status">
          {running && !hasContent && !editing && <span className="running-dot" aria-hidden="true" />}
          {status}
        </span>
        <span className="composer-actions">
          {canSteer && hasText && !blocked && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              title="Steer: put this into the running turn (Ctrl/⌘+Enter)"
              aria-keyshortcuts="Control+Enter Meta+Enter"
              onClick={steer}
            >
              Steer
            </button>
          )}
          {running && (hasContent || blocked) && !stopping && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={onStop}>
              <Icon name="square" size={12} />
              Stop
            </button>
          )}
          {voice && (
            <Suspense fallback={null}>
              <MicButton onText={insert} disabled={disabled} />
            </Suspense>
          )}
          {primary}
        </span>
      </div>
    </div>
  );
}

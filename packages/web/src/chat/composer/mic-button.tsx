import { TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_ROUTES, TranscriptionOut } from "@coffer/protocol";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { keys } from "../../api/queries.js";
import { Icon } from "../../ui/icons.js";
import { clock, micErrorText, recordingType, recordingUnsupported } from "./voice-text.js";
import "./mic.css";

/** Ten minutes of Opus is ~2.5 MB, far under TRANSCRIPTION_MAX_BYTES; a forgotten recording stops itself. */
const MAX_RECORDING_MS = 10 * 60_000;

type Phase = "idle" | "starting" | "recording" | "transcribing";
type Note = { readonly text: string; readonly tone: "error" | "info" | "off" };
interface Take {
  readonly recorder: MediaRecorder;
  readonly stream: MediaStream;
  cancelled: boolean;
}

const endTake = (take: Take) => {
  if (take.recorder.state !== "inactive") take.recorder.stop();
  for (const track of take.stream.getTracks()) track.stop();
};

/**
 * The composer's microphone: tap to record, tap to stop; the recording goes to POST
 * /transcriptions and the text comes back through `onText` into the box for review — never sent
 * by itself. Esc (or ×) cancels a recording. While voice is off the button stays, marked off,
 * and a tap says where to turn it on (docs/decisions.md, "Voice on the page").
 */
export function MicButton({ onText, disabled = false }: { onText: (text: string) => void; disabled?: boolean }) {
  const api = useApi();
  const client = useQueryClient();
  const status = useQuery({ queryKey: keys.transcriptionStatus, queryFn: () => api.call(TRANSCRIPTION_ROUTES.transcriptionStatus), staleTime: 30_000 });
  const off = status.data?.configured !== true;
  const [phase, setPhase] = useState<Phase>("idle");
  const [since, setSince] = useState(0);
  const [now, setNow] = useState(0);
  const [note, setNote] = useState<Note | null>(null);
  const take = useRef<Take | null>(null);
  const upload = useRef<AbortController | null>(null);
  const alive = useRef(true);
  const onTextRef = useRef(onText);
  onTextRef.current = onText;
  const noteId = useId();

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      if (take.current) (take.current.cancelled = true), endTake(take.current);
      upload.current?.abort();
    };
  }, []);

  const stop = () => take.current && endTake(take.current);
  const cancel = () => {
    if (!take.current) return;
    take.current.cancelled = true;
    endTake(take.current);
  };

  // The clock, the cap, and Esc (caught before the composer's own Esc, which would stop the turn).
  useEffect(() => {
    if (phase !== "recording") return;
    const tick = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at - since >= MAX_RECORDING_MS) stop();
    }, 250);
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      cancel();
    };
    window.addEventListener("keydown", onKey, true);
    return () => {
      clearInterval(tick);
      window.removeEventListener("keydown", onKey, true);
    };
  }, [phase, since]);

  const transcribe = async (audio: Blob) => {
    if (audio.size === 0) return setNote({ text: "Nothing was recorded.", tone: "info" });
    if (audio.size > TRANSCRIPTION_MAX_BYTES) return setNote({ text: "The recording is too long to transcribe; record a shorter one.", tone: "error" });
    setPhase("transcribing");
    const ctl = new AbortController();
    upload.current = ctl;
    try {
      const { text } = TranscriptionOut.parse(await api.sendBytes(TRANSCRIPTION_ROUTES.transcribe, audio, ctl.signal));
      if (text) onTextRef.current(text);
      else setNote({ text: "Nothing was heard in the recording.", tone: "info" });
    } catch (err) {
      if (ctl.signal.aborted) return;
      // Turned off elsewhere since this page asked: show the off state at once.
      if (err instanceof ApiError && err.code === "TRANSCRIPTION_OFF") void client.invalidateQueries({ queryKey: keys.transcriptionStatus });
      const words = (err as Error).message;
      setNote({ text: words.charAt(0).toUpperCase() + words.slice(1), tone: "error" });
    } finally {
      if (upload.current === ctl) upload.current = null;
      if (alive.current) setPhase("idle");
    }
  };

  const start = async () => {
    setNote(null);
    const unsupported = recordingUnsupported();
    if (unsupported) return setNote({ text: unsupported, tone: "error" });
    setPhase("starting");
    let stream: MediaStream;
    let recorder: MediaRecorder;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      setPhase("idle");
      return setNote({ text: micErrorText(err), tone: "error" });
    }
    const type = recordingType((t) => MediaRecorder.isTypeSupported(t));
    try {
      recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    } catch (err) {
      for (const track of stream.getTracks()) track.stop();
      setPhase("idle");
      return setNote({ text: micErrorText(err), tone: "error" });
    }
    const current: Take = { recorder, stream, cancelled: !alive.current };
    if (current.cancelled) return endTake(current); // the composer went away while the browser asked
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    recorder.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      if (take.current === current) take.current = null;
      if (!alive.current) return;
      setPhase("idle");
      // The daemon wants an audio/* type; a recorder that names none recorded its default, WebM.
      if (!current.cancelled) void transcribe(new Blob(chunks, { type: recorder.mimeType || type || "audio/webm" }));
    };
    take.current = current;
    recorder.start();
    const at = Date.now();
    setSince(at);
    setNow(at);
    setPhase("recording");
  };

  const press = () => {
    if (disabled || phase === "starting" || phase === "transcribing") return;
    if (phase === "recording") return stop();
    if (off) return setNote(note?.tone === "off" ? null : { text: "Voice input is off.", tone: "off" });
    void start();
  };

  const recording = phase === "recording";
  const label = recording ? "Stop recording and transcribe" : phase === "transcribing" ? "Transcribing" : off ? "Voice input (off)" : "Record a voice message";
  return (
    <span className="mic">
      {recording && (
        <>
          <span className="mic-live" role="timer" aria-label={`Recording, ${clock(now - since)}`}>
            <span className="mic-dot" aria-hidden="true" />
            {clock(now - since)}
          </span>
          <button type="button" className="icon-btn" aria-label="Cancel recording" title="Cancel recording (Esc)" aria-keyshortcuts="Escape" onClick={cancel}>
            <Icon name="x" size={14} />
          </button>
        </>
      )}
      {phase === "transcribing" && (
        <span className="mic-live" role="status">
          Transcribing…
        </span>
      )}
      <button
        type="button"
        className={`icon-btn mic-btn${recording ? " mic-btn-recording" : ""}${off && !recording ? " mic-btn-off" : ""}`}
        aria-label={label}
        title={off ? "Voice input is off: set a transcription connection in Settings → LLM Connections" : recording ? "Stop and transcribe" : "Record a voice message"}
        aria-disabled={disabled || (off && !recording) || phase === "starting" || phase === "transcribing"}
        aria-describedby={note ? noteId : undefined}
        aria-busy={phase === "starting" || phase === "transcribing"}
        onClick={press}
      >
        <Icon name={recording ? "square" : phase === "idle" ? "mic" : "spinner"} size={recording ? 16 : 18} fill={recording ? "currentColor" : "none"} />
      </button>
      {note && (
        <span id={noteId} className={`mic-note mic-note-${note.tone}`} role={note.tone === "error" ? "alert" : "status"}>
          {note.tone === "error" && <Icon name="alert" size={14} />}
          <span>
            {note.text}
            {note.tone === "off" && (
              <>
                {" "}
                Set a transcription connection in <Link to="/settings/connections">Settings → LLM Connections</Link> to dictate here.
              </>
            )}
          </span>
          <button type="button" className="icon-btn icon-btn-sm" aria-label="Dismiss" onClick={() => setNote(null)}>
            <Icon name="x" size={12} />
          </button>
        </span>
      )}
    </span>
  );
}

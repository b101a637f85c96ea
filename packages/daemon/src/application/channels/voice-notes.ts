import { TRANSCRIPTION_MAX_BYTES } from "@coffer/protocol";
import { TranscriptionFailed, TranscriptionOff } from "../../domain/errors.js";
import type { Logger } from "../ports.js";
import type { Recording } from "../transcription/transcription-ports.js";
import { PlatformFailure, type FileChunks, type InboundFile } from "./ports.js";

/** What a phone's voice note needs from the transcription connection (TranscriptionService). */
export interface VoiceTranscription {
  configured(): Promise<boolean>;
  transcribe(recording: Recording, signal?: AbortSignal): Promise<string>;
}

export interface VoiceNoteDeps {
  /** Absent: the daemon was built without voice; the phone hears the same "turn it on" line. */
  readonly transcription?: VoiceTranscription;
  /** The bytes of a platform file (BotConnection.downloadFile on the channel's live connection). */
  fetchFile(fileId: string, signal?: AbortSignal): Promise<FileChunks>;
  readonly logger: Logger;
  /** The platform as the owner names it, in the line the phone gets. */
  readonly platformName: string;
}

/** The one line a phone gets while voice is off: what to do, not just "no". */
export const VOICE_OFF_TEXT = "Voice notes need a transcription connection: Settings → LLM Connections → Voice transcription on the page.";

/**
 * The most a voice note may weigh: what one transcription may carry, and what a bot may fetch
 * from Telegram at all (getFile refuses files over 20 MB). Said before anything is fetched
 * when the platform tells the size; enforced while streaming when it does not.
 */
export const VOICE_NOTE_MAX_BYTES = Math.min(TRANSCRIPTION_MAX_BYTES, 20 * 1024 * 1024);

/** The echo shows this much of a long transcript: enough to check it was understood, one screen on a phone. */
export const ECHO_MAX_CHARS = 600;

/** What became of a voice note: its transcript to send, or the one line the phone was told instead. */
export type Heard = { readonly transcript: string } | { readonly line: string };

/**
 * A voice note or audio from the owner, turned into text: fetched (bounded), transcribed through
 * the owner's connection. Every way it can fail ends in exactly one line for the phone and
 * nothing sent; the caller echoes a transcript and sends it as the owner's message.
 */
export class VoiceNotes {
  constructor(private readonly deps: VoiceNoteDeps) {}

  async hear(file: InboundFile, signal?: AbortSignal): Promise<Heard> {
    const transcription = this.deps.transcription;
    // Checked first: with voice off nothing is fetched (the audio never leaves Telegram).
    if (!transcription || !(await transcription.configured())) return { line: VOICE_OFF_TEXT };
    if (file.size !== null && file.size > VOICE_NOTE_MAX_BYTES) return { line: tooLong() };
    let bytes: Uint8Array | null;
    try {
      bytes = await collect(await this.deps.fetchFile(file.fileId, signal), VOICE_NOTE_MAX_BYTES);
    } catch (err) {
      // Stopping is not a failure to tell the phone about: the update is handled again at the next start.
      signal?.throwIfAborted();
      if (!(err instanceof PlatformFailure)) throw err;
      // Our own wording (PlatformFailure never quotes the token-bearing URL).
      return { line: `🎤 The voice note could not be fetched from ${this.deps.platformName} (${err.message.replace(/\.$/, "")}); nothing was sent. Please send it again.` };
    }
    if (!bytes) return { line: tooLong() };
    let transcript: string;
    try {
      transcript = await transcription.transcribe({ bytes, mediaType: file.mediaType || "audio/ogg" }, signal);
    } catch (err) {
      signal?.throwIfAborted();
      // Turned off between the check and now: the same line as off.
      if (err instanceof TranscriptionOff) return { line: VOICE_OFF_TEXT };
      if (!(err instanceof TranscriptionFailed)) throw err;
      this.deps.logger.warn("voice note not transcribed", { err: err.message });
      return { line: `🎤 The voice note could not be transcribed, so nothing was sent: ${err.message.replace(/^the transcription connection could not turn the audio into text: /, "")}` };
    }
    if (!transcript.trim()) return { line: "🎤 Nothing was heard in that voice note, so nothing was sent." };
    return { transcript: transcript.trim() };
  }
}

/** "🎤 heard: …", cut at a word near ECHO_MAX_CHARS so a long monologue stays one readable message. */
export function echoText(transcript: string): string {
  const chars = [...transcript];
  if (chars.length <= ECHO_MAX_CHARS) return `🎤 heard: ${transcript}`;
  const head = chars.slice(0, ECHO_MAX_CHARS).join("");
  const space = head.lastIndexOf(" ");
  const cut = space > ECHO_MAX_CHARS * 0.8 ? head.slice(0, space) : head;
  return `🎤 heard: ${cut.trimEnd()}… (${chars.length} characters in all; the whole text was sent)`;
}

function tooLong(): string {
  return `🎤 That recording is over ${VOICE_NOTE_MAX_BYTES / (1024 * 1024)} MB, more than can be transcribed; nothing was sent. Please send a shorter one.`;
}

/** The file's bytes, or null as soon as they pass `max` (the rest is never read). */
async function collect(chunks: FileChunks, max: number): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > max) return null;
    parts.push(chunk);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * What the transcription service needs from outside: the connection the owner set (read each
 * time, so a change in Settings applies to the next recording) and a client that speaks to it.
 */

/** An OpenAI-compatible transcription endpoint (`POST <baseUrl>/v1/audio/transcriptions`). */
export interface TranscriptionConnection {
  readonly baseUrl: string;
  readonly model: string;
  /** A secret: never logged, never returned; the client scrubs it from upstream text. */
  readonly apiKey: string | null;
  readonly language: string | null;
}

export interface Recording {
  readonly bytes: Uint8Array;
  /** The recorder's media type (audio/webm, audio/ogg, audio/wav…). */
  readonly mediaType: string;
}

/** Thrown by a Transcriber with a message it wrote itself (no key, no raw SDK text). */
export class TranscriberFailure extends Error {}

export interface Transcriber {
  /** The transcript, trimmed; throws TranscriberFailure when the endpoint cannot give one. */
  transcribe(connection: TranscriptionConnection, recording: Recording, signal?: AbortSignal): Promise<string>;
}

export interface TranscriptionConnectionSource {
  /** The connection in force, or null while voice is off. */
  current(): Promise<TranscriptionConnection | null>;
}

import { TRANSCRIPTION_MAX_BYTES, type TranscriptionTestOut } from "@coffer/protocol";
import { testTone } from "./test-tone.js";
import { TranscriptionFailed, TranscriptionOff } from "../../domain/errors.js";
import {
  TranscriberFailure,
  type Recording,
  type Transcriber,
  type TranscriptionConnectionSource,
} from "./transcription-ports.js";

/**
 * Speech to text for every surface (the page's microphone, Telegram voice notes): reads the
 * connection in force, refuses while voice is off, and turns the client's failure into the one
 * wire code (TRANSCRIPTION_FAILED) so callers never see an upstream's own words unchecked.
 */
export class TranscriptionService {
  constructor(
    private readonly connections: TranscriptionConnectionSource,
    private readonly transcriber: Transcriber,
  ) {}

  async configured(): Promise<boolean> {
    return (await this.connections.current()) !== null;
  }

  async transcribe(recording: Recording, signal?: AbortSignal): Promise<string> {
    const connection = await this.connections.current();
    if (!connection) throw new TranscriptionOff();
    // The route caps the body already; this guards the daemon's own callers (Telegram files).
    if (recording.bytes.byteLength > TRANSCRIPTION_MAX_BYTES) {
      throw new TranscriptionFailed(`the recording is over ${TRANSCRIPTION_MAX_BYTES} bytes, the most one transcription may carry`);
    }
    try {
      return await this.transcriber.transcribe(connection, recording, signal);
    } catch (err) {
      if (err instanceof TranscriberFailure) throw new TranscriptionFailed(err.message);
      throw err;
    }
  }

  /** Settings → Connections → Test: a generated WAV through the connection; off still refuses. */
  async test(): Promise<TranscriptionTestOut> {
    try {
      return { ok: true, error: null, transcript: await this.transcribe(testTone()) };
    } catch (err) {
      if (err instanceof TranscriptionFailed) return { ok: false, error: err.message, transcript: null };
      throw err;
    }
  }
}

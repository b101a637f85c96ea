import {
  TranscriberFailure,
  type Recording,
  type Transcriber,
  type TranscriptionConnection,
} from "../../application/transcription/transcription-ports.js";

/** How long one transcription may take before we give up (a minute of speech on a slow CPU). */
export const DEFAULT_TRANSCRIPTION_TIMEOUT_MS = 120_000;
/** Enough of an upstream's error body to say what went wrong, not a page of HTML. */
const UPSTREAM_TEXT_MAX = 300;

/**
 * The OpenAI-compatible transcription wire (`POST <base>/v1/audio/transcriptions`, multipart
 * `file` + `model` [+ `language`], answer `{text}`), which OpenAI, whisper.cpp's server and
 * faster-whisper-server all speak. Plain fetch + FormData: no SDK for one request.
 */
export class OpenAiTranscriber implements Transcriber {
  constructor(private readonly timeoutMs = DEFAULT_TRANSCRIPTION_TIMEOUT_MS) {}

  async transcribe(connection: TranscriptionConnection, recording: Recording, signal?: AbortSignal): Promise<string> {
    const form = new FormData();
    // A copy typed as ArrayBuffer-backed: Blob refuses a view that could sit on a SharedArrayBuffer.
    const blob = new Blob([new Uint8Array(recording.bytes)], { type: recording.mediaType });
    form.append("file", blob, `audio.${extensionFor(recording.mediaType)}`);
    form.append("model", connection.model);
    if (connection.language) form.append("language", connection.language);
    form.append("response_format", "json");
    const headers: Record<string, string> = {};
    if (connection.apiKey) headers.authorization = `Bearer ${connection.apiKey}`;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const url = `${connection.baseUrl.replace(/\/+$/, "")}/v1/audio/transcriptions`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        body: form,
        headers,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch {
      // fetch's own error text may carry the URL; we say what happened in our words.
      throw new TranscriberFailure(timeout.aborted ? `no answer within ${Math.round(this.timeoutMs / 1000)} s` : "the endpoint could not be reached");
    }
    const body = await response.text().catch(() => "");
    if (!response.ok) {
      throw new TranscriberFailure(`the endpoint answered ${response.status}${upstreamWords(body, connection.apiKey)}`);
    }
    let text: unknown;
    try {
      text = (JSON.parse(body) as { text?: unknown }).text;
    } catch {
      throw new TranscriberFailure("the endpoint's answer was not JSON");
    }
    if (typeof text !== "string") throw new TranscriberFailure("the endpoint's answer had no text");
    return text.trim();
  }
}

/** The upstream's message (OpenAI's `{error:{message}}` or plain text), cut, key removed. */
function upstreamWords(body: string, apiKey: string | null): string {
  let words = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; detail?: unknown };
    const candidate = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.detail);
    if (typeof candidate === "string") words = candidate;
  } catch {
    /* not JSON: keep the text */
  }
  if (apiKey) words = words.split(apiKey).join("[key]");
  words = words.replace(/\s+/g, " ").trim().slice(0, UPSTREAM_TEXT_MAX);
  return words ? `: ${words}` : "";
}

/** Servers pick the decoder from the file name's extension, so it must match the bytes. */
function extensionFor(mediaType: string): string {
  const sub = mediaType.split(";")[0]!.trim().toLowerCase().split("/")[1] ?? "";
  const known: Record<string, string> = { mpeg: "mp3", "x-wav": "wav", wave: "wav", "x-m4a": "m4a", mp4: "m4a", opus: "ogg" };
  return known[sub] ?? (/^[a-z0-9]+$/.test(sub) ? sub : "bin");
}

/** The microphone's pure parts (mic-button.tsx, loaded lazily): its clock, its format, and what a failure says. */

/** m:ss, the recording's length beside the stop control. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The recorder's format: Opus in WebM (Chrome, Firefox) or MP4/AAC (Safari); both are formats
 * whisper.cpp, faster-whisper and OpenAI decode. Undefined lets the browser choose.
 */
export function recordingType(isSupported: (type: string) => boolean): string | undefined {
  return ["audio/webm;codecs=opus", "audio/webm", "audio/ogg;codecs=opus", "audio/mp4"].find((t) => isSupported(t));
}

/** getUserMedia's and MediaRecorder's refusals, in the owner's words (a DOMException's name says which). */
export function micErrorText(err: unknown): string {
  const name = err instanceof Error || err instanceof DOMException ? err.name : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return "Microphone blocked: allow it for this page in the browser's site settings, then try again.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No microphone found on this device.";
    case "NotReadableError":
    case "AbortError":
      return "The microphone is busy or unavailable (another app may be using it).";
    default:
      return `The microphone could not start${err instanceof Error && err.message ? ` (${err.message})` : ""}.`;
  }
}

/** Recording needs a secure page (https or localhost) and MediaRecorder; say so instead of failing on tap. */
export function recordingUnsupported(): string | null {
  if (typeof window !== "undefined" && !window.isSecureContext) return "The microphone needs a secure page: open Coffer on localhost or over https.";
  if (typeof navigator === "undefined" || !navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
    return "This browser cannot record audio here.";
  }
  return null;
}

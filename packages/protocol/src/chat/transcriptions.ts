import { z } from "zod";
import type { RouteSpec } from "../wire/route-spec.js";

/**
 * Voice (issue 25): speech becomes text through a transcription connection the owner sets in
 * Settings → Connections (an OpenAI-compatible `POST /v1/audio/transcriptions`, the shape local
 * servers such as whisper.cpp's and faster-whisper's speak). Off until one is set: audio is the
 * one thing that may leave the machine if the owner points it at a cloud service.
 *
 * The page's microphone posts its recording here (the raw bytes as the body, the recorder's media
 * type as Content-Type) and puts the text in the composer for review; Telegram voice notes go
 * through the same service inside the daemon.
 */

/** The most audio one request may carry (the OpenAI transcription API's own limit). */
export const TRANSCRIPTION_MAX_BYTES = 25 * 1024 * 1024;

export const TranscriptionOut = z.object({
  text: z.string().describe("What was understood, trimmed; empty when nothing was said."),
});
export type TranscriptionOut = z.infer<typeof TranscriptionOut>;

export const TranscriptionStatusOut = z.object({
  configured: z.boolean().describe("Whether a transcription connection is set (the page shows its microphone only then)."),
});
export type TranscriptionStatusOut = z.infer<typeof TranscriptionStatusOut>;

export const TRANSCRIPTION_ROUTES = {
  transcribe: {
    method: "post",
    path: "/transcriptions",
    summary: "Turn a recording into text through the transcription connection: the raw audio as the body, its media type (audio/*) as Content-Type",
    maxBodyBytes: TRANSCRIPTION_MAX_BYTES,
    responses: { 200: TranscriptionOut },
  },
  transcriptionStatus: {
    method: "get",
    path: "/transcriptions/status",
    summary: "Whether voice can be transcribed (a transcription connection is set)",
    responses: { 200: TranscriptionStatusOut },
  },
} as const satisfies Record<string, RouteSpec>;

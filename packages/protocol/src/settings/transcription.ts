import { z } from "zod";
import { Timestamp } from "../wire/common.js";
import type { RouteSpec } from "../wire/route-spec.js";

/**
 * The transcription connection (issue 25's voice): an OpenAI-compatible
 * `POST <base_url>/v1/audio/transcriptions` — OpenAI itself, or a local whisper.cpp /
 * faster-whisper server. Off until the owner sets one; audio leaves the machine only if the
 * base URL points elsewhere. The key is write-only: answers say `has_key`, never the key.
 */

export const DEFAULT_TRANSCRIPTION_MODEL = "whisper-1";

const BaseUrl = z
  .string()
  .trim()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), "an http:// or https:// URL")
  .describe("The server's base URL, without /v1/audio/transcriptions (e.g. http://127.0.0.1:8080 or https://api.openai.com).");

export const TranscriptionSettingsOut = z.object({
  base_url: z.string(),
  model: z.string(),
  language: z.string().nullable().describe("An ISO-639-1 hint (e.g. en, fr); null lets the server detect it."),
  has_key: z.boolean().describe("Whether an API key is stored (it is never returned)."),
  updated_at: Timestamp,
});
export type TranscriptionSettingsOut = z.infer<typeof TranscriptionSettingsOut>;

/** `connection` is null while voice is off. */
export const TranscriptionSettingsView = z.object({ connection: TranscriptionSettingsOut.nullable() });
export type TranscriptionSettingsView = z.infer<typeof TranscriptionSettingsView>;

export const TranscriptionSettingsPut = z.object({
  base_url: BaseUrl,
  model: z.string().trim().min(1).max(200).default(DEFAULT_TRANSCRIPTION_MODEL),
  api_key: z
    .string()
    .min(1)
    .max(16_384)
    .nullable()
    .optional()
    .describe("Omitted: keep the stored key; null: remove it; a string: store it (encrypted, write-only)."),
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}$/i, "a two- or three-letter language code")
    .nullable()
    .optional(),
});
export type TranscriptionSettingsPut = z.input<typeof TranscriptionSettingsPut>;

export const TranscriptionTestOut = z.object({
  ok: z.boolean(),
  error: z.string().nullable().describe("What went wrong, in the daemon's words (the key never appears)."),
  transcript: z.string().nullable().describe("What the server heard in the test tone (usually empty)."),
});
export type TranscriptionTestOut = z.infer<typeof TranscriptionTestOut>;

const path = "/settings/transcription";

/** Its own table, so only Settings → Connections (a lazy screen) carries these schemas. */
export const TRANSCRIPTION_SETTINGS_ROUTES = {
  getTranscriptionSettings: { method: "get", path, summary: "The transcription connection (null while voice is off)", responses: { 200: TranscriptionSettingsView } },
  putTranscriptionSettings: {
    method: "put",
    path,
    summary: "Set the transcription connection (turns voice on)",
    body: TranscriptionSettingsPut,
    responses: { 200: TranscriptionSettingsView },
  },
  deleteTranscriptionSettings: { method: "delete", path, summary: "Remove the transcription connection and its key (voice off)", responses: { 204: null } },
  testTranscriptionSettings: {
    method: "post",
    path: `${path}/test`,
    summary: "Send a tiny generated WAV through the transcription connection and report whether it answered",
    responses: { 200: TranscriptionTestOut },
  },
} as const satisfies Record<string, RouteSpec>;

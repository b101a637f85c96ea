import { ROUTES } from "@coffer/protocol";
import { TranscriptionOff } from "../../domain/errors.js";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";
import { ApiError } from "../errors.js";

/**
 * Voice to text: the page's microphone posts its recording (raw bytes, audio/* Content-Type;
 * the body limit is the protocol's TRANSCRIPTION_MAX_BYTES) and gets the transcript back.
 * While voice is off the service refuses with TRANSCRIPTION_OFF before a byte is read.
 */
export function transcriptionRoutes(bind: RouteBinder, { transcription, transcriptionSettings }: HttpDeps): void {
  bind
    .route(ROUTES.getTranscriptionSettings, () => transcriptionSettings.view())
    .route(ROUTES.putTranscriptionSettings, ({ body }) => transcriptionSettings.put(body))
    .route(ROUTES.deleteTranscriptionSettings, () => transcriptionSettings.remove())
    .route(ROUTES.testTranscriptionSettings, () => transcription.test())
    .route(ROUTES.transcriptionStatus, async () => ({ configured: await transcription.configured() }))
    .route(ROUTES.transcribe, async ({ c }) => {
      const mediaType = c.req.header("content-type") ?? "";
      try {
        if (!(await transcription.configured())) throw new TranscriptionOff();
        // Recorders label their output audio/webm or audio/ogg (Firefox, Chrome) or audio/mp4 (Safari).
        if (!/^audio\//i.test(mediaType)) {
          throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "send the recording's own bytes with its audio/* media type as Content-Type", { content_type: mediaType });
        }
        const bytes = new Uint8Array(await c.req.arrayBuffer());
        return { text: await transcription.transcribe({ bytes, mediaType }, c.req.raw.signal) };
      } catch (err) {
        // A refusal leaves the body unread: discard it so the client reads our answer.
        c.env.incoming.resume();
        throw err;
      }
    });
}

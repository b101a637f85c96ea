import { ROUTES } from "@coffer/protocol";
import { TranscriptionOff } from "../../domain/errors.js";
import type { RouteBinder } from "../bind-route.js";

/**
 * Voice to text. Until a transcription connection can be set (issue 25's voice task), voice is
 * off: the status says so and a recording is refused with TRANSCRIPTION_OFF, its body unread.
 */
export function transcriptionRoutes(bind: RouteBinder): void {
  bind
    .route(ROUTES.transcriptionStatus, () => ({ configured: false }))
    .route(ROUTES.transcribe, ({ c }) => {
      c.env.incoming.resume();
      throw new TranscriptionOff();
    });
}

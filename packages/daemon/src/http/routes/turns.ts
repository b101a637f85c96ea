import { ROUTES } from "@coffer/protocol";
import { surfaceOf } from "../../application/auth/principal.js";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function turnRoutes(bind: RouteBinder, { thread, turns, attachments }: HttpDeps): void {
  const { queue, edits, lifecycle, questions, reads } = turns;
  bind
    .route(ROUTES.listMessages, ({ params, query }) => thread.messages(params.id, query))
    // Every named file must exist before anything is written (ATTACHMENT_NOT_FOUND otherwise).
    .route(ROUTES.sendMessage, ({ params, body }) =>
      queue.send(params.id, body.text, body.client_id, body.delivery, attachments.describe(body.attachment_ids ?? []), false, undefined, body.send_at ? { at: Date.parse(body.send_at) } : body.send_when ? { reset: true } : undefined),
    )
    .route(ROUTES.getPending, ({ params }) => reads.pending(params.id))
    .route(ROUTES.setPending, ({ params, body }) => queue.set(params.id, body.pending, body.resume ?? true, body.seen, body.hold_id))
    // The editor is who requireAuth verified (web, cli, telegram): what other surfaces are told.
    .route(ROUTES.holdPending, ({ params, body, c }) => edits.hold(params.id, params.pid, surfaceOf(c.get("principal") ?? null), body.hold_id))
    .route(ROUTES.releasePendingHold, ({ params }) => edits.release(params.id, params.pid, params.hold))
    .route(ROUTES.steerPending, ({ params }) => queue.sendNow(params.id, params.pid))
    .route(ROUTES.interruptTurn, ({ params }) => lifecycle.interrupt(params.id))
    .route(ROUTES.listQuestions, ({ params }) => questions.list(params.id))
    .route(ROUTES.listOpenQuestions, () => ({ questions: questions.openAll() }))
    .route(ROUTES.getContextUsage, ({ params }) => reads.contextOf(params.id))
    // `by` is who requireAuth verified; the body's own `by` is kept only as a label.
    .route(ROUTES.answerQuestion, ({ params, body, c }) => questions.answer(params.id, params.qid, body.answers, surfaceOf(c.get("principal") ?? null), body.by));
}

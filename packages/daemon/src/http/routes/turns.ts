import { ROUTES } from "@coffer/protocol";
import { surfaceOf } from "../../application/auth/principal.js";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function turnRoutes(bind: RouteBinder, { conversations, engine }: HttpDeps): void {
  bind
    .route(ROUTES.listMessages, ({ params, query }) => conversations.messages(params.id, query))
    .route(ROUTES.sendMessage, ({ params, body }) => engine.send(params.id, body.text, body.client_id, body.delivery))
    .route(ROUTES.getPending, ({ params }) => engine.pending(params.id))
    .route(ROUTES.setPending, ({ params, body }) => engine.setPending(params.id, body.pending, body.resume ?? true, body.seen, body.hold_id))
    // The editor is who requireAuth verified (web, cli, telegram): what other surfaces are told.
    .route(ROUTES.holdPending, ({ params, body, c }) => engine.holdPending(params.id, params.pid, surfaceOf(c.get("principal") ?? null), body.hold_id))
    .route(ROUTES.releasePendingHold, ({ params }) => engine.releasePending(params.id, params.pid, params.hold))
    .route(ROUTES.steerPending, ({ params }) => engine.steerPending(params.id, params.pid))
    .route(ROUTES.interruptTurn, ({ params }) => engine.interrupt(params.id))
    .route(ROUTES.listQuestions, ({ params }) => engine.questionsOf(params.id))
    .route(ROUTES.getContextUsage, ({ params }) => engine.contextOf(params.id))
    // `by` is who requireAuth verified; the body's own `by` is kept only as a label.
    .route(ROUTES.answerQuestion, ({ params, body, c }) => engine.answer(params.id, params.qid, body.answers, surfaceOf(c.get("principal") ?? null), body.by));
}

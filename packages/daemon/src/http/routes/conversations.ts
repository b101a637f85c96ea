import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function conversationRoutes(bind: RouteBinder, { conversations, conversationSettings }: HttpDeps): void {
  bind
    .route(ROUTES.listConversations, ({ query }) => conversations.list(query))
    .route(ROUTES.createConversation, ({ body }) => conversations.create(body))
    .route(ROUTES.resolveConversationId, ({ params }) => conversations.resolveIdPrefix(params.prefix))
    .route(ROUTES.getConversation, ({ params }) => conversations.get(params.id))
    .route(ROUTES.renameConversation, ({ params, body }) => conversations.rename(params.id, body.title))
    .route(ROUTES.deleteConversation, ({ params }) => conversations.delete(params.id))
    .route(ROUTES.archiveConversation, ({ params }) => conversations.archive(params.id))
    .route(ROUTES.unarchiveConversation, ({ params }) => conversations.unarchive(params.id))
    .route(ROUTES.getAgentConfig, ({ params }) => conversationSettings.agentConfig(params.id))
    .route(ROUTES.patchAgentConfig, ({ params, body }) => conversationSettings.patchAgentConfig(params.id, body));
}

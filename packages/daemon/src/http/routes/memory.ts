import { ROUTES } from "@coffer/protocol";
import { toFactOut } from "../../application/vault/memory.js";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function memoryRoutes(bind: RouteBinder, { vault }: HttpDeps): void {
  const { memory } = vault;
  bind
    .route(ROUTES.listMemory, ({ query }) => memory.list(query))
    .route(ROUTES.createMemory, ({ body }) => memory.create(body))
    .route(ROUTES.searchMemory, ({ query: q }) => memory.recall({ query: q.q, scope: q.scope, project: q.project, topK: q.top_k, mode: q.mode }))
    .route(ROUTES.getMemory, ({ params }) => toFactOut(memory.get(params.id)))
    .route(ROUTES.updateMemory, ({ params, body }) => toFactOut(memory.update(params.id, body)))
    .route(ROUTES.deleteMemory, ({ params }) => memory.forget(params.id));
}

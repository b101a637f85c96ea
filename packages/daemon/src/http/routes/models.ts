import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

/** Provider introspection: always 200 with a humanised message; nothing is persisted. */
export function modelRoutes(bind: RouteBinder, { settings }: HttpDeps): void {
  bind
    .route(ROUTES.listModels, ({ body }) => settings.models.listModels(body))
    .route(ROUTES.testConnection, ({ body }) => settings.models.testConnection(body));
}

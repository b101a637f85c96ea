import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function connectionRoutes(bind: RouteBinder, { settings }: HttpDeps): void {
  const { connections } = settings;
  bind
    .route(ROUTES.listWires, () => connections.wireList())
    .route(ROUTES.listConnections, () => connections.list())
    .route(ROUTES.createConnection, ({ body }) => connections.create(body))
    .route(ROUTES.getConnection, ({ params }) => connections.get(params.id))
    .route(ROUTES.updateConnection, ({ params, body }) => connections.update(params.id, body))
    .route(ROUTES.deleteConnection, ({ params }) => connections.remove(params.id))
    .route(ROUTES.makeInternalDefault, ({ params }) => connections.makeInternalDefault(params.id));
}

import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function channelRoutes(bind: RouteBinder, { channels }: HttpDeps): void {
  bind
    .route(ROUTES.listChannelKinds, () => channels.kinds())
    .route(ROUTES.listChannels, () => channels.list())
    .route(ROUTES.createChannel, ({ body }) => channels.create(body))
    .route(ROUTES.getChannel, ({ params }) => channels.get(params.id))
    .route(ROUTES.updateChannel, ({ params, body }) => channels.update(params.id, body))
    .route(ROUTES.deleteChannel, ({ params }) => channels.remove(params.id))
    .route(ROUTES.enableChannel, ({ params }) => channels.enable(params.id))
    .route(ROUTES.disableChannel, ({ params }) => channels.disable(params.id))
    .route(ROUTES.createPairingCode, ({ params }) => channels.pairingCode(params.id));
}

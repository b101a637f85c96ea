import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function scheduleRoutes(bind: RouteBinder, { schedules, brief }: HttpDeps): void {
  bind
    .route(ROUTES.listSchedules, () => schedules.list())
    .route(ROUTES.createSchedule, ({ body }) => schedules.create(body))
    .route(ROUTES.getSchedule, ({ params }) => schedules.get(params.id))
    .route(ROUTES.updateSchedule, ({ params, body }) => schedules.update(params.id, body))
    .route(ROUTES.deleteSchedule, ({ params }) => schedules.remove(params.id))
    .route(ROUTES.runSchedule, ({ params }) => schedules.runNow(params.id))
    // The morning brief: a built-in schedule, its settings beside the owner's others.
    .route(ROUTES.getBrief, () => brief.get())
    .route(ROUTES.setBrief, ({ body }) => brief.update(body))
    .route(ROUTES.sendBrief, () => brief.sendNow());
}

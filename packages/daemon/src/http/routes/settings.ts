import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function settingsRoutes(bind: RouteBinder, { settings }: HttpDeps): void {
  bind
    .route(ROUTES.getRetention, () => settings.retention.get())
    .route(ROUTES.setRetention, ({ body }) => settings.retention.update(body))
    .route(ROUTES.getAlerts, () => settings.alerts.get())
    .route(ROUTES.setAlerts, ({ body }) => settings.alerts.update(body))
    .route(ROUTES.getQuestionSettings, () => settings.questions.get())
    .route(ROUTES.setQuestionSettings, ({ body }) => settings.questions.update(body))
    .route(ROUTES.getBackups, () => settings.backups.status())
    .route(ROUTES.createBackup, ({ body }) => settings.backups.backupNow(body));
}

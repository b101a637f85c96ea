import { ROUTES } from "@coffer/protocol";
import { listAudit } from "../../application/audit-log.js";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function auditRoutes(bind: RouteBinder, { audit }: HttpDeps): void {
  bind.route(ROUTES.listAudit, ({ query }) => listAudit(audit, query));
}

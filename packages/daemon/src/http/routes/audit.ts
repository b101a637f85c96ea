import { AuditListQuery } from "@coffer/protocol";
import { Hono } from "hono";
import { listAudit } from "../../application/audit-log.js";
import type { Env, HttpDeps } from "../deps.js";
import { queryParams } from "../validate.js";

export function auditRoutes({ audit }: HttpDeps): Hono<Env> {
  return new Hono<Env>().get("/audit", (c) => c.json(listAudit(audit, queryParams(c, AuditListQuery))));
}

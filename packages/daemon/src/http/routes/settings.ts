import { RetentionSettingsPatch } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody } from "../validate.js";

export function settingsRoutes({ settings }: HttpDeps): Hono<Env> {
  return new Hono<Env>()
    .get("/settings/retention", (c) => c.json(settings.retention.get()))
    .put("/settings/retention", async (c) => c.json(settings.retention.update(await jsonBody(c, RetentionSettingsPatch))));
}

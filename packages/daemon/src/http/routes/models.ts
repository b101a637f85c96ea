import { ListModelsRequest, TestConnectionRequest } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody } from "../validate.js";

/** Provider introspection: always 200 with a humanised message; nothing is persisted. */
export function modelRoutes({ settings }: HttpDeps): Hono<Env> {
  return new Hono<Env>()
    .post("/models/list-models", async (c) => c.json(await settings.models.listModels(await jsonBody(c, ListModelsRequest))))
    .post("/models/test-connection", async (c) => c.json(await settings.models.testConnection(await jsonBody(c, TestConnectionRequest))));
}

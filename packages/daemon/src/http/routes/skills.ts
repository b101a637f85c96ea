import { SkillImportIn } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody } from "../validate.js";

export function skillRoutes({ vault }: HttpDeps): Hono<Env> {
  return new Hono<Env>()
    .get("/skills", async (c) => c.json(await vault.skills.list()))
    .post("/skills/import", async (c) => {
      const { path, overwrite } = await jsonBody(c, SkillImportIn);
      return c.json(await vault.skills.import(path, overwrite));
    })
    .get("/skills/:name", async (c) => c.json(await vault.skills.get(c.req.param("name"))))
    .delete("/skills/:name", async (c) => {
      await vault.skills.remove(c.req.param("name"));
      return c.body(null, 204);
    });
}

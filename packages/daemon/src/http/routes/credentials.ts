import { CredentialPut, CredentialRef } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { jsonBody } from "../validate.js";

function refParam(raw: string): string {
  const parsed = CredentialRef.safeParse(raw);
  if (!parsed.success) throw new ApiError("VALIDATION_FAILED", `ref: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

/** Write-only secrets: there is deliberately no GET /credentials/{ref}. */
export function credentialRoutes({ settings }: HttpDeps): Hono<Env> {
  return new Hono<Env>()
    .get("/credentials", (c) => c.json(settings.credentials.list()))
    .put("/credentials/:ref", async (c) => {
      const ref = refParam(c.req.param("ref"));
      const { secret } = await jsonBody(c, CredentialPut);
      return c.json(settings.credentials.set(ref, secret));
    })
    .delete("/credentials/:ref", (c) => {
      settings.credentials.remove(refParam(c.req.param("ref")));
      return c.body(null, 204);
    });
}

import { CredentialRef, ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { jsonBody } from "../validate.js";

function refParam(raw: string): string {
  const parsed = CredentialRef.safeParse(raw);
  if (!parsed.success) throw new ApiError("VALIDATION_FAILED", `ref: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

/** Write-only secrets: there is deliberately no GET /credentials/{ref}. */
export function credentialRoutes(bind: RouteBinder, { settings }: HttpDeps): void {
  bind
    .route(ROUTES.listCredentials, () => settings.credentials.list())
    // Raw so the ref is checked before the body is read, as it always was (a bad ref wins).
    .raw(ROUTES.setCredential, async (c) => {
      const ref = refParam(c.req.param("ref") ?? "");
      const { secret } = await jsonBody(c, ROUTES.setCredential.body);
      return c.json(settings.credentials.set(ref, secret));
    })
    .route(ROUTES.deleteCredential, ({ params }) => settings.credentials.remove(refParam(params.ref)));
}

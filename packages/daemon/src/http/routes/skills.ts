import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";
import { decodeUploads } from "./uploads.js";

export function skillRoutes(bind: RouteBinder, { vault }: HttpDeps): void {
  bind
    .route(ROUTES.listSkills, () => vault.skills.list())
    .route(ROUTES.importSkills, ({ body }) => vault.skills.import(body.path, body.overwrite))
    .route(ROUTES.uploadSkills, ({ body }) => vault.skills.upload(decodeUploads(body.files), body.overwrite))
    .route(ROUTES.createSkill, ({ body }) => vault.skills.create(body))
    .route(ROUTES.getSkill, ({ params }) => vault.skills.get(params.name))
    .route(ROUTES.deleteSkill, ({ params }) => vault.skills.remove(params.name));
}

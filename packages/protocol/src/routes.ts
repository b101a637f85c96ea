import { CHANNEL_ROUTES } from "./channels/routes.js";
import { CHAT_ROUTES, CONTEXT_ROUTES, FOOTPRINT_ROUTES, QUESTION_ROUTES, QUEUE_EDIT_ROUTES } from "./chat/routes.js";
import { SETTINGS_ROUTES } from "./settings/routes.js";
import { VAULT_ROUTES } from "./vault/routes.js";
import { ATTACHMENT_ROUTES } from "./chat/attachments.js";
import { TRANSCRIPTION_ROUTES } from "./chat/transcriptions.js";
import { TRANSCRIPTION_SETTINGS_ROUTES } from "./settings/transcription.js";
import { BRIEF_ROUTES, SCHEDULE_ROUTES } from "./schedules/routes.js";
import type { NamedRoute } from "./wire/route-spec.js";

export * from "./wire/route-spec.js";
export * from "./chat/routes.js";

/**
 * The one table of every /api/v1 route, keyed by a stable name (docs/decisions.md, "Wire
 * contract"): the daemon binds each handler to its entry, the clients call it by name. Each
 * area keeps its routes beside its schemas (<area>/routes.ts); they are joined here, in the
 * order the OpenAPI document lists them.
 */
export const ROUTES = { ...CHAT_ROUTES, ...SETTINGS_ROUTES, ...VAULT_ROUTES, ...CHANNEL_ROUTES, ...QUESTION_ROUTES, ...CONTEXT_ROUTES, ...QUEUE_EDIT_ROUTES, ...FOOTPRINT_ROUTES, ...ATTACHMENT_ROUTES, ...TRANSCRIPTION_ROUTES, ...TRANSCRIPTION_SETTINGS_ROUTES, ...SCHEDULE_ROUTES, ...BRIEF_ROUTES } as const;
export type RouteName = keyof typeof ROUTES;

/** The same table as a list, with the names (OpenAPI is generated from it; tests walk it). */
export const ROUTE_LIST: readonly NamedRoute[] = Object.entries(ROUTES).map(([name, route]) => ({ name, ...route }));

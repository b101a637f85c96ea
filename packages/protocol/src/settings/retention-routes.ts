import type { RouteSpec } from "../wire/route-spec.js";
import { RetentionSettingsOut, RetentionSettingsPatch } from "./retention.js";

/**
 * The retention windows' routes (spread into SETTINGS_ROUTES). A table and a file of their own
 * because the Chat reads them too (its first run and an archived conversation's deletion
 * notice): a bundler places whole modules, so the page's first load takes this file alone, not
 * the rest of Settings' routes and schemas (docs/decisions.md, "The page's first load carries
 * only the chat's schemas").
 */
export const RETENTION_ROUTES = {
  getRetention: { method: "get", path: "/settings/retention", summary: "Conversation retention windows", responses: { 200: RetentionSettingsOut } },
  setRetention: {
    method: "put",
    path: "/settings/retention",
    summary: "Change the retention windows; null = keep forever",
    body: RetentionSettingsPatch,
    responses: { 200: RetentionSettingsOut },
  },
} as const satisfies Record<string, RouteSpec>;

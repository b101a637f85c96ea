import { z } from "zod";
import { Timestamp } from "../wire/common.js";
import { CredentialRef } from "./credentials.js";

/**
 * The LLM provider kind ("anthropic", "openai", "ollama"). On the API it keeps its historical
 * name: the `wire` field, `GET /connections/wires` (docs/decisions.md, "Wire contract"); in
 * code and on the page it is the provider kind. The daemon's table of provider kinds is the
 * authority; another kind is one row there.
 */
export const WireName = z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, "a wire name such as anthropic, openai or ollama");
export type WireName = z.infer<typeof WireName>;

const BaseUrl = z.url({ protocol: /^https?$/ }).max(2048).describe("Provider endpoint; omitted or null = the wire's default.");
const ModelId = z.string().trim().min(1).max(200);
const ConnectionName = z.string().trim().min(1).max(100);

export const WireOut = z.object({
  wire: WireName,
  display_name: z.string(),
  needs_credential: z.boolean(),
  default_base_url: z.string(),
});
export type WireOut = z.infer<typeof WireOut>;

export const WireListOut = z.object({ wires: z.array(WireOut) });
export type WireListOut = z.infer<typeof WireListOut>;

export const ConnectionOut = z.object({
  id: z.string(),
  name: z.string(),
  wire: WireName,
  base_url: z.string().nullable(),
  model: z.string(),
  credential_ref: CredentialRef.nullable(),
  credential_set: z.boolean().describe("The referenced credential exists (its value is never returned)."),
  internal_default: z.boolean().describe("Coffer's internal engine (coffer__ask) runs on this connection. At most one is."),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ConnectionOut = z.infer<typeof ConnectionOut>;

export const ConnectionListOut = z.object({ connections: z.array(ConnectionOut) });
export type ConnectionListOut = z.infer<typeof ConnectionListOut>;

export const ConnectionCreate = z.object({
  name: ConnectionName,
  wire: WireName,
  base_url: BaseUrl.nullable().optional(),
  model: ModelId,
  credential_ref: CredentialRef.nullable().optional(),
  internal_default: z.boolean().optional(),
});
export type ConnectionCreate = z.infer<typeof ConnectionCreate>;

export const ConnectionPatch = z.object({
  name: ConnectionName.optional(),
  wire: WireName.optional(),
  base_url: BaseUrl.nullable().optional(),
  model: ModelId.optional(),
  credential_ref: CredentialRef.nullable().optional(),
  internal_default: z.boolean().optional().describe("true makes this the one internal default; false clears it."),
});
export type ConnectionPatch = z.infer<typeof ConnectionPatch>;

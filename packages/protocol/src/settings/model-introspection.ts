import { z } from "zod";
import { CredentialRef } from "./credentials.js";
import { WireName } from "./llm-connections.js";

const Target = {
  base_url: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
  credential_ref: CredentialRef.nullable().optional(),
};

/** `provider` is the upstream name for `wire`; either is accepted. Nothing is persisted. */
export const ListModelsRequest = z
  .object({ wire: WireName.optional(), provider: WireName.optional(), ...Target })
  .refine((r) => r.wire !== undefined || r.provider !== undefined, { message: "name the wire (or provider)", path: ["wire"] });
export type ListModelsRequest = z.infer<typeof ListModelsRequest>;

export const ListModelsOut = z.object({
  models: z.array(z.string()),
  message: z.string().describe("Why the list is empty, humanised; the owner can still type a model id."),
});
export type ListModelsOut = z.infer<typeof ListModelsOut>;

export const TestConnectionRequest = z
  .object({ wire: WireName.optional(), provider: WireName.optional(), model: z.string().trim().min(1).max(200), ...Target })
  .refine((r) => r.wire !== undefined || r.provider !== undefined, { message: "name the wire (or provider)", path: ["wire"] });
export type TestConnectionRequest = z.infer<typeof TestConnectionRequest>;

export const FailureKind = z.enum([
  "auth",
  "not_found",
  "refused",
  "timeout",
  "rate_limited",
  "provider_error",
  "bad_request",
  "credential_missing",
  "unknown_wire",
  "unexpected",
]);
export type FailureKind = z.infer<typeof FailureKind>;

export const TestConnectionOut = z.object({
  ok: z.boolean(),
  message: z.string().describe('"connection ok", or a humanised failure'),
  detail: z
    .object({
      wire: z.string(),
      model: z.string(),
      base_url: z.string().optional(),
      kind: FailureKind.optional(),
      status: z.number().int().optional(),
      latency_ms: z.number().optional(),
    })
    .catchall(z.unknown()),
});
export type TestConnectionOut = z.infer<typeof TestConnectionOut>;

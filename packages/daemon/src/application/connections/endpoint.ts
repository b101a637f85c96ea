import type { FailureKind } from "@coffer/protocol";
import { DomainError } from "../../domain/errors.js";
import type { CredentialResolver } from "../credentials/ports.js";
import { humaniseFailure } from "./failure-messages.js";
import type { LlmEndpoint, LlmProviders, ProviderKind } from "./ports.js";

export interface EndpointRequest {
  readonly providerKind: string;
  readonly baseUrl: string | null;
  readonly credentialRef: string | null;
}

export type EndpointResolution =
  | { readonly ok: true; readonly endpoint: LlmEndpoint; readonly provider: ProviderKind }
  | { readonly ok: false; readonly kind: FailureKind; readonly message: string; readonly baseUrl?: string };

/**
 * Provider kind + base URL + credential ref → an endpoint ready to call, with the secret resolved in
 * memory for this one call. Anything missing becomes a humanised failure, not an exception.
 */
export function resolveEndpoint(providers: LlmProviders, credentials: CredentialResolver, req: EndpointRequest): EndpointResolution {
  const provider = providers.providerKinds().find((k) => k.kind === req.providerKind);
  if (!provider) {
    const known = providers.providerKinds().map((k) => k.kind).join(", ");
    return { ok: false, kind: "unknown_wire", message: `Unknown provider "${req.providerKind}"; this daemon speaks: ${known}.` };
  }
  const baseUrl = (req.baseUrl ?? provider.defaultBaseUrl).replace(/\/+$/, "");
  const missing = (): EndpointResolution => ({
    ok: false,
    kind: "credential_missing",
    baseUrl,
    message: humaniseFailure(
      { kind: "credential_missing" },
      { provider, baseUrl, credentialRef: req.credentialRef, timeoutMs: providers.timeoutMs, operation: "list" },
    ),
  });
  if (!req.credentialRef) return provider.needsCredential ? missing() : { ok: true, provider, endpoint: { providerKind: provider.kind, baseUrl, apiKey: null } };
  let apiKey: string;
  try {
    apiKey = credentials.resolve(req.credentialRef);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === "CREDENTIAL_NOT_FOUND") return missing();
    return { ok: false, kind: "credential_missing", baseUrl, message: err.message };
  }
  return { ok: true, provider, endpoint: { providerKind: provider.kind, baseUrl, apiKey } };
}

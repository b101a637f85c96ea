import type { FailureKind } from "@coffer/protocol";
import { DomainError } from "../../domain/errors.js";
import type { CredentialResolver } from "../credentials/ports.js";
import { humaniseFailure } from "./failure-messages.js";
import type { Connection, LlmEndpoint, LlmProviders, ProviderKind } from "./ports.js";

/** The endpoint a connection (or a list-models/test request) names, in the API's words. */
export type EndpointRequest = Pick<Connection, "wire" | "base_url" | "credential_ref">;

export type EndpointResolution =
  | { readonly ok: true; readonly endpoint: LlmEndpoint; readonly provider: ProviderKind }
  | { readonly ok: false; readonly kind: FailureKind; readonly message: string; readonly baseUrl?: string };

/**
 * Provider kind + base URL + credential ref → an endpoint ready to call, with the secret resolved in
 * memory for this one call. Anything missing becomes a humanised failure, not an exception.
 */
export function resolveEndpoint(providers: LlmProviders, credentials: CredentialResolver, req: EndpointRequest): EndpointResolution {
  const provider = providers.providerKinds().find((k) => k.kind === req.wire);
  if (!provider) {
    const known = providers.providerKinds().map((k) => k.kind).join(", ");
    return { ok: false, kind: "unknown_wire", message: `Unknown provider "${req.wire}"; this daemon speaks: ${known}.` };
  }
  const baseUrl = (req.base_url ?? provider.defaultBaseUrl).replace(/\/+$/, "");
  const missing = (): EndpointResolution => ({
    ok: false,
    kind: "credential_missing",
    baseUrl,
    message: humaniseFailure(
      { kind: "credential_missing" },
      { provider, baseUrl, credentialRef: req.credential_ref, timeoutMs: providers.timeoutMs, operation: "list" },
    ),
  });
  if (!req.credential_ref) return provider.needsCredential ? missing() : { ok: true, provider, endpoint: { providerKind: provider.kind, baseUrl, apiKey: null } };
  let apiKey: string;
  try {
    apiKey = credentials.resolve(req.credential_ref);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === "CREDENTIAL_NOT_FOUND") return missing();
    return { ok: false, kind: "credential_missing", baseUrl, message: err.message };
  }
  return { ok: true, provider, endpoint: { providerKind: provider.kind, baseUrl, apiKey } };
}

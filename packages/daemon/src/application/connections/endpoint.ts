import type { FailureKind } from "@coffer/protocol";
import { DomainError } from "../../domain/errors.js";
import type { CredentialResolver } from "../credentials/ports.js";
import { humaniseFailure } from "./failure-messages.js";
import type { LlmEndpoint, LlmWires, WireInfo } from "./ports.js";

export interface EndpointRequest {
  readonly wire: string;
  readonly baseUrl: string | null;
  readonly credentialRef: string | null;
}

export type EndpointResolution =
  | { readonly ok: true; readonly endpoint: LlmEndpoint; readonly wire: WireInfo }
  | { readonly ok: false; readonly kind: FailureKind; readonly message: string; readonly baseUrl?: string };

/**
 * Wire + base URL + credential ref → an endpoint ready to call, with the secret resolved in
 * memory for this one call. Anything missing becomes a humanised failure, not an exception.
 */
export function resolveEndpoint(wires: LlmWires, credentials: CredentialResolver, req: EndpointRequest): EndpointResolution {
  const wire = wires.wires().find((w) => w.wire === req.wire);
  if (!wire) {
    const known = wires.wires().map((w) => w.wire).join(", ");
    return { ok: false, kind: "unknown_wire", message: `Unknown wire "${req.wire}"; this daemon speaks: ${known}.` };
  }
  const baseUrl = (req.baseUrl ?? wire.defaultBaseUrl).replace(/\/+$/, "");
  const missing = (): EndpointResolution => ({
    ok: false,
    kind: "credential_missing",
    baseUrl,
    message: humaniseFailure(
      { kind: "credential_missing" },
      { wire, baseUrl, credentialRef: req.credentialRef, timeoutMs: wires.timeoutMs, operation: "list" },
    ),
  });
  if (!req.credentialRef) return wire.needsCredential ? missing() : { ok: true, wire, endpoint: { wire: wire.wire, baseUrl, apiKey: null } };
  let apiKey: string;
  try {
    apiKey = credentials.resolve(req.credentialRef);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err.code === "CREDENTIAL_NOT_FOUND") return missing();
    return { ok: false, kind: "credential_missing", baseUrl, message: err.message };
  }
  return { ok: true, wire, endpoint: { wire: wire.wire, baseUrl, apiKey } };
}

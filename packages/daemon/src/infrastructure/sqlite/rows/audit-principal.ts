import type { AuditPrincipal } from "@coffer/protocol";

/** Where an audit row's verified principal is kept inside its details JSON (the reader lifts it out). */
export const PRINCIPAL_KEY = "$principal";

/** The details to store: the caller's, plus the principal (set last, so no caller can forge it). */
export function withPrincipal(details: Record<string, unknown>, principal: AuditPrincipal | null): Record<string, unknown> {
  const { [PRINCIPAL_KEY]: _forged, ...own } = details;
  return principal ? { ...own, [PRINCIPAL_KEY]: principal } : own;
}

import type { FailureKind } from "@coffer/protocol";
import type { LlmFailure, ProviderKind } from "./ports.js";

export interface FailureContext {
  readonly provider: ProviderKind;
  readonly baseUrl: string;
  readonly credentialRef: string | null;
  readonly model?: string;
  readonly timeoutMs: number;
  /** "list" asks for the model listing; "test" for one model. */
  readonly operation: "list" | "test" | "ask";
}

/**
 * Owner-facing words for each failure: what happened, and what to do about it. A fix names the
 * page's Settings, which is the same wherever Coffer runs; a CLI command would read `coffer …`
 * even where the owner types `npm run coffer -- …` (issue 22: hints must work where shown).
 */
export function humaniseFailure(failure: LlmFailure, ctx: FailureContext): string {
  const who = ctx.provider.displayName;
  const http = failure.status ? ` (HTTP ${failure.status})` : "";
  const byKind: Record<FailureKind, () => string> = {
    auth: () =>
      ctx.credentialRef
        ? `${who} rejected the credential "${ctx.credentialRef}"${http}: check the key stored under that name (Settings → Credentials).`
        : `${who} at ${ctx.baseUrl} asks for a credential${http}: choose a credential ref for this connection.`,
    not_found:
      ctx.operation === "list"
        ? () => `${who} has no model listing at ${ctx.baseUrl}${http}: check the base URL.`
        : () => `The model "${ctx.model}" was not found at ${ctx.baseUrl}${http}: check the model id (list the provider's models to pick one) or the base URL.`,
    refused: () => `Nothing is listening at ${ctx.baseUrl} (connection refused): is ${who} running, and is the base URL right?`,
    timeout: () => `${who} did not answer within ${Math.round(ctx.timeoutMs / 100) / 10} s at ${ctx.baseUrl}: check the base URL and your network.`,
    rate_limited: () => `${who} is rate-limiting requests${http}; try again shortly.`,
    bad_request: () => `${who} refused the request${http}${failure.providerMessage ? `: ${failure.providerMessage}` : ""}.`,
    provider_error: () => `${who} answered with an error${http}${failure.providerMessage ? `: ${failure.providerMessage}` : ""}; try again later.`,
    credential_missing: () =>
      ctx.credentialRef
        ? `No credential is stored as "${ctx.credentialRef}": add it under Settings → Credentials.`
        : `The ${ctx.provider.kind} provider needs a credential: choose a credential ref.`,
    unknown_wire: () => `Unknown provider "${ctx.provider.kind}".`,
    unexpected: () => sentence(`Could not talk to ${who} at ${ctx.baseUrl}${failure.providerMessage ? `: ${failure.providerMessage}` : ""}`),
  };
  return byKind[failure.kind]();
}

/** Belt and braces: whatever a provider echoes back, the secret never leaves in our words. */
export function redact(text: string, secret: string | null): string {
  if (!secret) return text;
  return text.split(secret).join("[redacted]");
}

/** Ends a message with one full stop, whatever the provider's own text ended with. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

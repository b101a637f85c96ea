import { ChannelCredentialsInvalid } from "../../domain/channel-errors.js";
import type { ChatPlatform, CredentialRefs } from "./ports.js";

/**
 * A channel's credential map as the owner gave it, checked against what its platform declares:
 * `given` replaces names in `current`; `botTokenRef` is shorthand for the platform's first secret
 * credential. Every declared name must end up with a ref, and no undeclared name is kept.
 */
export function credentialMap(
  platform: ChatPlatform,
  current: CredentialRefs,
  given: Readonly<Record<string, string>> | undefined,
  botTokenRef: string | undefined,
): CredentialRefs {
  const declared = platform.credentials.map((c) => c.name);
  const shorthand = platform.credentials.find((c) => c.secret)?.name;
  const merged: Record<string, string> = { ...current, ...given };
  if (botTokenRef !== undefined) {
    if (!shorthand) throw new ChannelCredentialsInvalid(platform.displayName, "it declares no secret credential for bot_token_ref", declared);
    merged[shorthand] = botTokenRef;
  }
  const unknown = Object.keys(merged).filter((name) => !declared.includes(name));
  if (unknown.length) throw new ChannelCredentialsInvalid(platform.displayName, `it has no credential named ${unknown.join(", ")}`, declared);
  const missing = declared.filter((name) => !merged[name]);
  if (missing.length) throw new ChannelCredentialsInvalid(platform.displayName, `${missing.join(", ")} is missing`, declared);
  return merged;
}

/** The refs of the platform's secret credentials, in declared order. */
export function secretRefs(platform: ChatPlatform | undefined, refs: CredentialRefs): string[] {
  return (platform?.credentials ?? []).filter((c) => c.secret && refs[c.name]).map((c) => refs[c.name]!);
}

/** The ref of the first secret credential (what `bot_token_ref` shows), or null. */
export function firstSecretRef(platform: ChatPlatform | undefined, refs: CredentialRefs): string | null {
  return secretRefs(platform, refs)[0] ?? null;
}

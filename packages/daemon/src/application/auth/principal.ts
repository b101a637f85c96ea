import type { Principal } from "./principal-ports.js";

export type { Principal, PrincipalScope } from "./principal-ports.js";

/**
 * The surface a verified principal stands for, as a question's `by` shows it: what the server
 * checked, not what the client says (a client's own `by` is kept only as a label).
 */
export function surfaceOf(principal: Principal | null): string {
  switch (principal?.kind) {
    case "session":
      return "web";
    case "token":
      return "cli";
    case "channel":
      // The platform the channel speaks (its adapter's kind); older rows named none.
      return principal.platform ?? "channel";
    case "agent":
      return "agent";
    default:
      return "daemon";
  }
}

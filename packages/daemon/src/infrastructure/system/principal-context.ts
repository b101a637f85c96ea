import { AsyncLocalStorage } from "node:async_hooks";
import type { Principal, PrincipalScope } from "../../application/auth/principal-ports.js";

/**
 * The verified principal of the work in progress, carried by Node's async context: the HTTP
 * layer enters it per request, a channel per update, and the audit sink reads it for every
 * row, so no use case needs a "who" parameter threaded through it.
 */
export function asyncPrincipalScope(): PrincipalScope {
  const storage = new AsyncLocalStorage<Principal>();
  return {
    run: (principal, fn) => storage.run(principal, fn),
    current: () => storage.getStore() ?? null,
  };
}

// Who the daemon verified is acting, carried through the async work a request (or a channel
// update) causes. Adapter: infrastructure/system/principal-context.ts (AsyncLocalStorage).
import type { AuditPrincipal } from "@coffer/protocol";

export type Principal = AuditPrincipal;

export interface PrincipalScope {
  /** Runs `fn` (and everything it awaits or schedules) as `principal`. */
  run<T>(principal: Principal, fn: () => T): T;
  /** The principal of the work in progress; null for the daemon's own work. */
  current(): Principal | null;
}

/** Nobody is ever in scope: for tests and wiring that has no requests. */
export const NO_PRINCIPALS: PrincipalScope = { run: (_p, fn) => fn(), current: () => null };

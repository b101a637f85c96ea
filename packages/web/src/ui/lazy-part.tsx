import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** Waits between fetch attempts: long enough together to span a daemon restart (a few seconds). */
const RETRY_MS = [500, 1500, 4000];

/** What a part shows when its code never arrived: the rest of the page keeps working. */
function PartUnavailable() {
  return (
    <span className="part-unavailable" role="status">
      Part of this page did not load.{" "}
      <button type="button" className="link-btn" onClick={() => location.reload()}>
        Reload
      </button>
    </span>
  );
}

/** The same for a whole route (the Vault, Settings): it fills the main area like a page. */
function RouteUnavailable() {
  return (
    <div className="route-unavailable">
      <div className="banner banner-warning" role="status">
        <span className="banner-text">This page did not load: the daemon may have restarted while it was fetched.</span>
        <button type="button" className="btn btn-sm" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}

interface LazyPartOptions {
  /** A whole route rather than a piece of one: says so in a banner. */
  readonly route?: boolean;
  readonly retryMs?: readonly number[];
}

/**
 * React.lazy for a page part whose code is its own chunk. A chunk fetch fails when the daemon
 * stops or restarts while the page is open; plain `lazy` then throws into the render and, with
 * nothing above to catch it, React unmounts the whole page (a blank screen, the daemon-proof
 * dialog and the live link gone with it). Here the fetch is retried, and if it still fails the
 * part renders `PartUnavailable` in its place instead of taking the page down.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export function lazyPart<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  { route = false, retryMs = RETRY_MS }: LazyPartOptions = {},
): LazyExoticComponent<T> {
  return lazy(async () => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await load();
      } catch {
        const wait = retryMs[attempt];
        if (wait === undefined) return { default: (route ? RouteUnavailable : PartUnavailable) as unknown as T };
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  });
}

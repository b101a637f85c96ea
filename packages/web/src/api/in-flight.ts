import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Call after patching a cache from a live event. A fetch of that cache in flight may have read
 * the daemon before the event and would land over the patch (or, on a first load, without it),
 * so it is fetched again from now: a refetch over held data is cancelled and started anew
 * (react-query cancels it silently, so the patch shows meanwhile); a first load cannot be
 * restarted (react-query joins it), so it is fetched once more after it lands. With no fetch in
 * flight this does nothing. (docs/decisions.md, "A list event during a list fetch")
 */
export function refetchIfInFlight(client: QueryClient, queryKey: QueryKey): void {
  const query = client.getQueryCache().find({ queryKey, fetchStatus: "fetching" });
  const inFlight = query?.promise;
  if (!inFlight) return;
  const again = () => void client.invalidateQueries({ queryKey, exact: true });
  void (query.state.data === undefined ? inFlight.then(again, again) : again());
}

import { useQuery } from "@tanstack/react-query";
import { RETENTION_ROUTES } from "@coffer/protocol";
import { useApi } from "../../api/api-context.js";

const DAY = 86_400_000;

/**
 * When retention will delete an archived conversation, in words: it goes once it has been
 * archived longer than `delete_after_days` (the daemon's next pass after that). Null when
 * nothing deletes it (keep forever) or it is not archived.
 */
export function deletionNotice(archivedAt: string | null, deleteAfterDays: number | null, now = Date.now()): string | null {
  if (!archivedAt || deleteAfterDays === null) return null;
  const left = Date.parse(archivedAt) + deleteAfterDays * DAY - now;
  if (left <= DAY) return "deleted within a day";
  // Rounded up: "in 30 days" right after archiving (not 29), and never later than it says but for the pass's interval.
  const days = Math.ceil(left / DAY);
  return `deleted in ${days} day${days === 1 ? "" : "s"}`;
}

/** The retention windows, shared with Settings → Data (one query key: saving there updates the history). */
export function useRetention(enabled: boolean) {
  const api = useApi();
  return useQuery({ queryKey: ["settings", "retention"], queryFn: () => api.call(RETENTION_ROUTES.getRetention), enabled, staleTime: 60_000 });
}

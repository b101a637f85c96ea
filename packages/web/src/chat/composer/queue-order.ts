import type { PendingPreview } from "@coffer/protocol";

/**
 * The order the tray shows: the server's, or — between a reorder and the server's answer —
 * the owner's. The local order belongs to one server list: a new list (queue_changed, a
 * failed save putting it back) replaces it, so it never outlives what it reordered.
 */
export interface LocalOrder {
  readonly base: readonly PendingPreview[];
  readonly ids: readonly string[];
}

export function shownOrder(pending: readonly PendingPreview[], local: LocalOrder | null): readonly PendingPreview[] {
  if (!local || local.base !== pending) return pending;
  const byId = new Map(pending.map((p) => [p.id, p]));
  return local.ids.map((id) => byId.get(id)).filter((p): p is PendingPreview => p !== undefined);
}

/** `ids` with `id` taken out and put back at `to` (0-based); null if nothing moves. */
export function moveId(ids: readonly string[], id: string, to: number): string[] | null {
  const from = ids.indexOf(id);
  if (from < 0 || to < 0 || to >= ids.length || to === from) return null;
  const next = ids.filter((x) => x !== id);
  next.splice(to, 0, id);
  return next;
}

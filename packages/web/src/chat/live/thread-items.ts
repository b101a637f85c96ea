import type { MessageOut } from "@coffer/protocol";
import type { LiveTurn } from "./apply-event.js";

export type ThreadItem =
  | { readonly kind: "message"; readonly key: string; readonly message: MessageOut }
  | { readonly kind: "live"; readonly key: string; readonly turn: LiveTurn };

/**
 * The thread as shown: persisted messages in seq order, with any turn seen live standing
 * in for its assistant row until that row is settled, and live turns the persisted page
 * does not hold yet appended at the end. A reply a steer removed (it had said nothing) is
 * not shown, even when an older fetch still lists its row.
 */
export function mergeThread(persisted: readonly MessageOut[], turns: readonly LiveTurn[]): ThreadItem[] {
  const byAssistant = new Map(turns.map((t) => [t.assistantMessageId, t]));
  const ids = new Set<string>();
  const items: ThreadItem[] = [];
  for (const message of persisted) {
    ids.add(message.id);
    const turn = byAssistant.get(message.id);
    if (turn?.removed) continue; // an empty reply a steer removed (this list was fetched before)
    if (turn && (turn.phase === "streaming" || message.status === "streaming")) items.push({ kind: "live", key: message.id, turn });
    else items.push({ kind: "message", key: message.id, message });
  }
  for (const turn of turns) {
    if (!ids.has(turn.userMessage.id)) items.push({ kind: "message", key: turn.userMessage.id, message: turn.userMessage });
    if (!ids.has(turn.assistantMessageId) && !turn.removed) items.push({ kind: "live", key: turn.assistantMessageId, turn });
  }
  return items;
}

// The pairing of calls and results is the protocol's, so the page and `coffer chat show` agree.
export { toSegments, type Segment } from "@coffer/protocol";

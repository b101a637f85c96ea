import type { AttachmentOut, PendingPreview, QueueHold } from "@coffer/protocol";
import { Composer } from "./composer.js";
import { QueueTray } from "./queue-tray.js";
import { useQueueActions } from "./use-queue-actions.js";

export interface QueueComposerProps {
  readonly conversationId: string;
  readonly agentName: string;
  readonly pending: readonly PendingPreview[];
  readonly paused: boolean;
  readonly hold?: QueueHold | null;
  readonly running: boolean;
  readonly stopping: boolean;
  readonly runningSince?: string | null;
  /** The agent asked a question and waits: say so instead of "Working". */
  readonly waitingForOwner?: boolean;
  readonly onSend: (text: string, files: readonly AttachmentOut[]) => void;
  readonly onSteer?: (text: string) => void;
  readonly onStop: () => void;
  /** The owner typed (the conversation's pre-warm hint, use-prewarm.ts). */
  readonly onTyping?: (text: string) => void;
  /** A navigation asked for the composer's focus (composer-focus.ts). */
  readonly focusRequest?: string | null;
}

/**
 * The foot of an open conversation: the pending queue and the composer, wired so that
 * nothing typed or queued is lost — the draft survives a reload, and editing a queued
 * message changes the server queue only when the edit is saved.
 */
export function QueueComposer({ conversationId, agentName, pending, paused, hold = null, running, stopping, runningSince, waitingForOwner, onSend, onSteer, onStop, onTyping, focusRequest = null }: QueueComposerProps) {
  const queue = useQueueActions(conversationId, pending);
  // The queue has stopped in front of a message being edited: its head, with no turn running.
  const head = pending[0];
  const mineAtHead = head !== undefined && queue.editing?.id === head.id;
  const stoppedAt = !running && !paused && head && (mineAtHead || head.editing) ? (mineAtHead ? "mine" : "elsewhere") : null;
  return (
    <>
      <QueueTray
        pending={pending}
        paused={paused}
        hold={hold}
        editingId={queue.editing?.id ?? null}
        stoppedAtEdit={stoppedAt}
        onCancelEdit={queue.cancelEdit}
        onEdit={queue.edit}
        onRemove={queue.remove}
        onSendNow={queue.sendNow}
        onReorder={queue.reorder}
        onResume={queue.resume}
        onClear={queue.clear}
        conversationId={conversationId}
      />
      {queue.editingGone && (
        <div className="editing-note" role="status">
          The message you are editing has left the queue — saving queues your text as a new message.{" "}
          <button type="button" className="link-btn" onClick={queue.cancelEdit}>
            Cancel edit
          </button>
        </div>
      )}
      <Composer
        agentName={agentName}
        running={running}
        stopping={stopping}
        paused={paused && pending.length > 0}
        hold={hold}
        runningSince={runningSince}
        waitingForOwner={waitingForOwner}
        draftKey={conversationId}
        editing={queue.editing}
        onSend={onSend}
        onSteer={onSteer}
        onStop={onStop}
        {...(onTyping ? { onTyping } : {})}
        onPullLast={pending.length ? queue.pullLast : undefined}
        onSaveEdit={queue.saveEdit}
        onCancelEdit={queue.cancelEdit}
        focusRequest={focusRequest}
        laterIn={conversationId}
      />
    </>
  );
}

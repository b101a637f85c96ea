import type { AttachmentOut } from "@coffer/protocol";
import type { BusHub } from "./bus-hub.js";
import type { RunningTurns } from "./running-turns.js";

export interface TurnSharedFilesDeps {
  readonly running: RunningTurns;
  readonly hub: BusHub;
  /** Adds the attachment after the message's others (AttachmentStore.appendToMessage), with its caption; absent = nowhere to keep it. */
  readonly link?: (messageId: string, attachmentId: string, caption: string | undefined) => void;
}

/**
 * A file the agent shares (coffer__share_file) joins the reply being written now: stored on that
 * assistant row, so a reload shows it, and announced on the bus (`file_shared`), so every open
 * page shows it during the turn and a bound chat sends it after the reply's text. The running
 * turn is the one that called the tool: the gateway credential names its conversation, and a
 * conversation runs one turn at a time.
 */
export class TurnSharedFiles {
  constructor(private readonly deps: TurnSharedFilesDeps) {}

  /** False when no reply is being written in that conversation (the tool then tells the agent so). */
  attach(conversationId: string, attachment: AttachmentOut, caption: string | undefined): boolean {
    const turn = this.deps.running.get(conversationId);
    const messageId = turn?.replyId;
    if (!turn || !messageId || turn.stopReason || !this.deps.link) return false;
    this.deps.link(messageId, attachment.id, caption);
    // The attachment as a reload reads it (its caption on it), so the live page shows the same.
    const shown = caption ? { ...attachment, caption } : attachment;
    this.deps.hub.publishIfLive(conversationId, { type: "file_shared", turn_id: turn.turnId, message_id: messageId, attachment: shown, caption: caption ?? null });
    return true;
  }
}

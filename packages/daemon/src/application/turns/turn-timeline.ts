import type { AttachmentOut, MessageOut } from "@coffer/protocol";
import type { IdGenerator, MessageStore, ScheduleRef } from "../ports.js";

/**
 * The one place a turn's rows are written into the thread: the owner's message (at a turn's
 * start, or steered into one) and the empty reply that streams after it. Callers hold the
 * transaction; these only build the rows, so each row's shape lives once.
 */
export class TurnTimeline {
  constructor(
    private readonly store: Pick<MessageStore, "insertMessage">,
    private readonly ids: IdGenerator,
  ) {}

  /** The owner's message, complete as sent; `steered` when it joined a running turn; `voice` when the text is a transcript. */
  userMessage(conversationId: string, text: string, clientId: string | null, now: number, steered = false, attachments: readonly AttachmentOut[] = [], voice = false, schedule?: ScheduleRef): MessageOut {
    return this.store.insertMessage({
      id: this.ids(),
      conversationId,
      role: "user",
      content: [{ type: "text", text }],
      status: "complete",
      modelId: null,
      clientId,
      now,
      ...(steered ? { steered: true } : {}),
      ...(attachments.length ? { attachments } : {}),
      ...(voice ? { voice: true } : {}),
      ...(schedule ? { schedule } : {}),
    });
  }

  /** An empty assistant row the runner streams into until the turn's terminal closes it. */
  streamingReply(conversationId: string, modelId: string | null, now: number): MessageOut {
    return this.store.insertMessage({
      id: this.ids(),
      conversationId,
      role: "assistant",
      content: [],
      status: "streaming",
      modelId,
      clientId: null,
      now,
    });
  }
}

import type { SendMessageAck } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import { QueueFull } from "../../domain/errors.js";
import type { Clock, ConversationStore, IdGenerator, Logger, PendingRow, PendingStore, Transactor } from "../ports.js";
import type { ActiveTurn } from "./active-turn.js";
import type { BusHub } from "./bus-hub.js";
import type { TurnTimeline } from "./turn-timeline.js";

/** A message on its way into a running turn: new (pendingId null) or a queued row ("Send now"). */
export interface SteerMessage {
  readonly text: string;
  readonly clientId: string | null;
  readonly pendingId: string | null;
  /** The text is a recording's transcript: the steered row keeps the 🎤 mark. */
  readonly voice?: boolean;
}

/** What a refused steer needs from the queue: its head, and the nudge to run it. */
export interface SteerFallbackQueue {
  /** Put the row first in the queue and unpause it (one transaction). */
  placeFirst(conversationId: string, row: PendingRow): void;
  advance(conversationId: string): Promise<void>;
}

export interface TurnSteeringDeps {
  readonly tx: Transactor;
  readonly conversations: Pick<ConversationStore, "touchConversation">;
  readonly pending: Pick<PendingStore, "listPending" | "deletePending">;
  readonly timeline: TurnTimeline;
  readonly hub: BusHub;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly queueMax: number;
  readonly publishQueue: (conversationId: string) => void;
  readonly queue: SteerFallbackQueue;
}

/**
 * Steering a running turn (docs/decisions.md, "Steering a running turn"): the adapter takes the
 * text (then the reply splits around it) or it goes to the head of the queue with a
 * steer_fallback — exactly one of the two, so the message is never lost and never reaches
 * the agent twice.
 */
export class TurnSteering {
  /** Queued rows on their way into a running turn ("Send now"): the queue must not also start them. */
  private readonly rows = new Set<string>();

  constructor(private readonly deps: TurnSteeringDeps) {}

  /** Whether this queued row is being steered right now (the steer's outcome decides, then advances). */
  isSteering(pendingId: string): boolean {
    return this.rows.has(pendingId);
  }

  /** One steer, in order with any other on the same turn. */
  steer(conv: Conversation, turn: ActiveTurn, msg: SteerMessage): Promise<SendMessageAck> {
    if (msg.pendingId) this.rows.add(msg.pendingId);
    const run = turn.steering
      .then(async (): Promise<SendMessageAck> => {
        const refusal = await this.offer(turn, msg.text);
        if (!refusal) {
          this.place(conv.id, turn, msg);
          return { queued: false, steered: true };
        }
        return this.fallback(conv, msg, refusal);
      })
      .finally(() => {
        if (!msg.pendingId) return;
        this.rows.delete(msg.pendingId);
        void this.deps.queue.advance(conv.id);
      });
    turn.steering = run.catch(() => undefined);
    return run;
  }

  /** Null when the running turn took the text; otherwise why not. */
  private async offer(turn: ActiveTurn, text: string): Promise<string | null> {
    if (turn.stopReason || !turn.split) return "turn_ended";
    if (!turn.adapter?.steer) return "not_steerable";
    try {
      return (await turn.adapter.steer(text)) ? null : "turn_ended";
    } catch (err) {
      this.deps.logger.warn("steer failed", { conversation: turn.conversationId, err: String(err) });
      return "steer_failed";
    }
  }

  private place(conversationId: string, turn: ActiveTurn, msg: SteerMessage): void {
    const { tx, pending, conversations, clock } = this.deps;
    const split = turn.split;
    tx.transaction(() => {
      if (msg.pendingId) pending.deletePending(msg.pendingId);
      if (split) {
        split(msg.text, msg.clientId, msg.voice ?? false);
        return;
      }
      // The agent took it as its turn was ending: it follows that reply in the timeline.
      const now = clock.now();
      this.deps.timeline.userMessage(conversationId, msg.text, msg.clientId, now, true, [], msg.voice ?? false);
      conversations.touchConversation(conversationId, now);
    });
    if (msg.pendingId) this.deps.publishQueue(conversationId);
  }

  private fallback(conv: Conversation, msg: SteerMessage, reason: string): SendMessageAck {
    const queued = this.deps.pending.listPending(conv.id);
    const row = msg.pendingId ? queued.find((r) => r.id === msg.pendingId) : undefined;
    if (msg.pendingId && !row) return { queued: false }; // it ran or was removed meanwhile: never queue it again
    if (!row && queued.length >= this.deps.queueMax) throw new QueueFull(conv.id, this.deps.queueMax);
    const head: PendingRow = row ?? { id: this.deps.ids(), text: msg.text, clientId: msg.clientId, ...(msg.voice ? { voice: true } : {}) };
    this.deps.queue.placeFirst(conv.id, head);
    this.deps.hub.publishIfLive(conv.id, { type: "steer_fallback", text: msg.text, reason, pending_id: head.id });
    this.deps.publishQueue(conv.id);
    void this.deps.queue.advance(conv.id);
    return { queued: true, pending_id: head.id };
  }
}

import type { ChatEvent, TextDeltaEvent } from "@coffer/protocol";

/** One event as it travels the bus. `cursor` is the SSE `id:`; `fromSeq` < seq only for merged deltas. */
export interface BusFrame {
  readonly seq: number;
  readonly fromSeq: number;
  readonly cursor: string;
  readonly event: ChatEvent;
}

export interface BusSubscriber {
  deliver(frame: BusFrame): void;
  /** The bus is gone (conversation deleted): end the stream. */
  end(): void;
}

/** Above this many buffered frames, runs of text deltas are merged so a long turn stays small. */
const COMPACT_AT = 4096;

let epochCounter = 0;
function newEpoch(): string {
  epochCounter += 1;
  return `${Date.now().toString(36)}${epochCounter.toString(36)}`;
}

/**
 * A conversation's live bus: a sequence of events, the current turn's replay buffer,
 * the latest queue snapshot, and the subscribers. The epoch changes whenever the bus is
 * recreated (restart or idle eviction), so a cursor from an older bus is recognised and
 * answered with `resync`.
 */
export class ConversationBus {
  readonly epoch = newEpoch();
  private seq = 0;
  private buffer: BusFrame[] = [];
  private queueFrame: BusFrame | null = null;
  /** Every non-queue frame with a seq above this is in `buffer`. */
  private replayBase = 0;
  private inTurn = false;
  private compactAt = COMPACT_AT;
  private readonly subscribers = new Set<BusSubscriber>();

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  get idle(): boolean {
    return !this.inTurn && this.subscribers.size === 0;
  }

  get hasQueueSnapshot(): boolean {
    return this.queueFrame !== null;
  }

  beginTurn(): void {
    this.buffer = [];
    this.compactAt = COMPACT_AT;
    this.replayBase = this.seq;
    this.inTurn = true;
  }

  /** The turn's content is now in its message row; the buffer is no longer needed. */
  endTurn(): void {
    this.buffer = [];
    this.replayBase = this.seq;
    this.inTurn = false;
  }

  publish(event: ChatEvent): BusFrame {
    const frame = this.frame(event);
    if (event.type === "queue_changed") {
      this.queueFrame = frame;
    } else if (this.inTurn) {
      this.buffer.push(frame);
      if (this.buffer.length > this.compactAt) this.compact();
    } else {
      this.replayBase = frame.seq;
    }
    for (const s of this.subscribers) s.deliver(frame);
    return frame;
  }

  /**
   * Attach a subscriber. Without a cursor it gets the in-flight turn and the queue
   * snapshot; with one it gets exactly what it missed, or `resync` and a full replay
   * when that cannot be known.
   */
  subscribe(subscriber: BusSubscriber, cursor?: string): () => void {
    const after = cursor === undefined ? null : this.resumePoint(cursor);
    if (after === "resync") subscriber.deliver(this.resyncFrame(cursor ?? ""));
    if (typeof after === "number") this.replay(subscriber, after, false);
    else this.replay(subscriber, this.replayBase, true);
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** The conversation is gone: tell everyone and end every stream. */
  close(): void {
    const frame = this.frame({ type: "conversation_deleted" });
    for (const s of this.subscribers) {
      s.deliver(frame);
      s.end();
    }
    this.subscribers.clear();
    this.buffer = [];
    this.inTurn = false;
  }

  private frame(event: ChatEvent): BusFrame {
    this.seq += 1;
    return { seq: this.seq, fromSeq: this.seq, cursor: `${this.epoch}-${this.seq}`, event };
  }

  private resyncFrame(cursor: string): BusFrame {
    const reason = cursor.startsWith(`${this.epoch}-`)
      ? "the events after your cursor are no longer buffered"
      : "your cursor is from an earlier stream (daemon restart or idle reset)";
    return {
      seq: this.replayBase,
      fromSeq: this.replayBase,
      cursor: `${this.epoch}-${this.replayBase}`,
      event: { type: "resync", reason },
    };
  }

  private resumePoint(cursor: string): number | "resync" {
    const dash = cursor.lastIndexOf("-");
    if (dash <= 0 || cursor.slice(0, dash) !== this.epoch) return "resync";
    const seq = Number(cursor.slice(dash + 1));
    if (!Number.isInteger(seq) || seq < this.replayBase || seq > this.seq) return "resync";
    if (this.buffer.some((f) => f.fromSeq <= seq && seq < f.seq)) return "resync";
    return seq;
  }

  /** Frames after `after` in seq order; the queue snapshot too when it is newer or `withQueue`. */
  private replay(subscriber: BusSubscriber, after: number, withQueue: boolean): void {
    const queue = this.queueFrame && (withQueue || this.queueFrame.seq > after) ? this.queueFrame : null;
    let queueSent = queue === null;
    for (const frame of this.buffer) {
      if (frame.seq <= after) continue;
      if (!queueSent && queue!.seq < frame.seq) {
        subscriber.deliver(queue!);
        queueSent = true;
      }
      subscriber.deliver(frame);
    }
    if (!queueSent) subscriber.deliver(queue!);
  }

  /** Merge runs of text deltas (all but the newest frames) into single frames. */
  private compact(): void {
    const keepTail = 256;
    const head = this.buffer.slice(0, -keepTail);
    const merged: BusFrame[] = [];
    for (const frame of head) {
      const last = merged[merged.length - 1];
      if (last && last.event.type === "text_delta" && frame.event.type === "text_delta") {
        const text = (last.event as TextDeltaEvent).text + frame.event.text;
        merged[merged.length - 1] = {
          seq: frame.seq,
          fromSeq: last.fromSeq,
          cursor: frame.cursor,
          event: { type: "text_delta", text },
        };
      } else {
        merged.push(frame);
      }
    }
    this.buffer = merged.concat(this.buffer.slice(-keepTail));
    // Tool-heavy turns do not shrink much; back off so compaction stays amortised O(1).
    this.compactAt = Math.max(COMPACT_AT, this.buffer.length * 2);
  }
}

import type { ChatEvent } from "@coffer/protocol";
import { ConversationBus, type BusSubscriber } from "./live-bus.js";

/**
 * Owns the per-conversation buses. A bus exists only while a turn runs or someone
 * listens; an idle, unwatched conversation costs no memory.
 */
export class BusHub {
  private readonly buses = new Map<string, ConversationBus>();

  /** How many buses are alive (for tests and the memory bound). */
  get size(): number {
    return this.buses.size;
  }

  /** Live-stream listeners across every bus (GET /system/stats). */
  get subscriberCount(): number {
    let n = 0;
    for (const bus of this.buses.values()) n += bus.subscriberCount;
    return n;
  }

  peek(conversationId: string): ConversationBus | undefined {
    return this.buses.get(conversationId);
  }

  acquire(conversationId: string): ConversationBus {
    let bus = this.buses.get(conversationId);
    if (!bus) {
      bus = new ConversationBus();
      this.buses.set(conversationId, bus);
    }
    return bus;
  }

  /** Publish only if someone could care: a live bus. Idle conversations have nothing to tell. */
  publishIfLive(conversationId: string, event: ChatEvent): void {
    this.buses.get(conversationId)?.publish(event);
  }

  subscribe(
    conversationId: string,
    subscriber: BusSubscriber,
    cursor: string | undefined,
    prime: (bus: ConversationBus) => void,
  ): () => void {
    const bus = this.acquire(conversationId);
    prime(bus);
    const unsubscribe = bus.subscribe(subscriber, cursor);
    return () => {
      unsubscribe();
      this.release(conversationId);
    };
  }

  release(conversationId: string): void {
    const bus = this.buses.get(conversationId);
    if (bus?.idle) this.buses.delete(conversationId);
  }

  close(conversationId: string): void {
    const bus = this.buses.get(conversationId);
    if (!bus) return;
    this.buses.delete(conversationId);
    bus.close();
  }
}

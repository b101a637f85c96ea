import { isTerminalEvent, type ChatEvent, type SendMessageAck } from "@coffer/protocol";
import type { TurnEngine } from "./turn-engine.js";

export interface ChannelTurn {
  readonly turnId: string;
  /** This turn's events, from turn_start to its one terminal event; then the iterable ends. */
  readonly events: AsyncIterable<ChatEvent>;
}

/**
 * The seam another surface (an IM channel) drives a bound conversation through. Turns it
 * starts go through the same engine and bus, so every open page watches them live, and
 * the pending queue advances after them like after any other turn.
 */
export interface TurnPort {
  /** Start now, or fail with TURN_IN_PROGRESS: a channel buffers its own input. */
  startTurn(conversationId: string, text: string): Promise<ChannelTurn>;
  /** Send like any surface: start now or queue. */
  send(conversationId: string, text: string, clientId?: string): Promise<SendMessageAck>;
  interrupt(conversationId: string): Promise<void>;
}

export function channelTurnPort(engine: TurnEngine): TurnPort {
  return {
    async startTurn(conversationId, text) {
      const inbox: ChatEvent[] = [];
      let wake: (() => void) | null = null;
      let ended = false;
      // Listen before starting, so not one event of the turn can be missed.
      const detach = engine.subscribe(conversationId, {
        deliver: (frame) => {
          inbox.push(frame.event);
          wake?.();
        },
        end: () => {
          ended = true;
          wake?.();
        },
      });
      let turnId: string;
      try {
        turnId = (await engine.startTurn(conversationId, text)).turnId;
      } catch (err) {
        detach();
        throw err;
      }
      async function* events(): AsyncGenerator<ChatEvent> {
        let mine = false;
        try {
          for (;;) {
            while (inbox.length) {
              const event = inbox.shift()!;
              if (event.type === "turn_start") mine = event.turn_id === turnId;
              if (!mine) continue;
              yield event;
              if (isTerminalEvent(event)) return;
            }
            if (ended) return;
            await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
          }
        } finally {
          detach();
        }
      }
      return { turnId, events: events() };
    },
    send: (conversationId, text, clientId) => engine.send(conversationId, text, clientId),
    interrupt: (conversationId) => engine.interrupt(conversationId),
  };
}

import type { AgentEvent, TextDeltaEvent } from "@coffer/protocol";
import type { SecretScrubber } from "./secret-scrubber.js";

/**
 * One turn's view of the scrubber, at the point where the adapter's events enter the turn:
 * what it returns is what is folded into the stored reply, published on the live bus (and so
 * streamed to pages and relayed to Telegram) and handed to alerts. Text deltas go through
 * `scrubStreaming`, which may hold back a tail that could be the start of a secret until the
 * next delta shows whether it is; any other event first releases that tail (`drain`).
 */
export class AgentOutputScrubber {
  private held = "";

  constructor(private readonly scrubber: SecretScrubber) {}

  /** The text to emit for this delta now ("" = all of it is held for the moment). */
  text(delta: string): string {
    if (this.scrubber.idle && !this.held) return delta;
    const { ready, held } = this.scrubber.scrubStreaming(this.held + delta);
    this.held = held;
    return ready;
  }

  /**
   * The held tail as a delta to emit before anything else is (null when none): the stream
   * moved on without completing it, so a long one is a cut-off secret and becomes its ref.
   */
  drain(): TextDeltaEvent | null {
    if (!this.held) return null;
    const text = this.scrubber.scrubCutOff(this.held);
    this.held = "";
    return { type: "text_delta", text };
  }

  /** Any event but a text delta, every string in it scrubbed (the same object when clean). */
  event<E extends AgentEvent>(event: E): E {
    return this.scrubber.scrubValue(event);
  }

  /** Free text bound for the bus or an alert (an error message). */
  scrub(text: string): string {
    return this.scrubber.scrub(text);
  }
}

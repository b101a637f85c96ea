import type { TestDaemon } from "../../packages/daemon/test/support/test-daemon.js";

/**
 * The per-platform part of bench/channel: how its fake is started beside a real daemon with a
 * paired channel, how a phone message is injected, when the fake itself handed it over (the
 * floor), how edits and calls are counted. Everything measured above it (measures.ts) names no
 * platform; a platform is one more driver in main.ts's list.
 */
export interface ChannelDriver {
  /** The platform's display name, as the report's block heading. */
  readonly name: string;
  /** Edits the platform allows in one window (the bar of the edits measure). */
  readonly editWindowMs: number;
  readonly maxEditsPerWindow: number;
  /** What "arrived in one go" means on this platform (the burst's first check), in words. */
  readonly batchWords: string;
  /** The method the daemon receives with (Telegram's getUpdates), counted apart from the work; null on a push connection. */
  readonly pollMethod: string | null;
  /** A real daemon (default channel timings: the bench measures what ships) with a paired channel on the scripted agent. */
  start(): Promise<DriverRig>;
}

export interface BotMessage {
  readonly text: string;
}

export interface DriverRig {
  readonly t: TestDaemon;
  readonly channelId: string;
  /** The owner sends `text` from the phone. */
  say(text: string): void;
  /**
   * When the fake itself handed the owner's message sent at `t0` (wall clock) to the daemon's
   * connection — the held long poll answered, the gateway frame written — as ms after `t0`;
   * NaN when it cannot tell.
   */
  handOverSince(t0: number): number;
  /** Sends every text at once (one poll answer, a burst of gateway frames) and resolves once the daemon handled them all; `batched`: they did arrive in one go. */
  sayAll(texts: readonly string[]): Promise<{ readonly batched: boolean }>;
  /** The bot's messages in the owner's chat, as the phone shows them. */
  botMessages(): readonly BotMessage[];
  /** Resolves when `predicate` holds, checked after each change on the fake. */
  waitFor(predicate: () => boolean): Promise<void>;
  /** Resolves at the fake's next change (a call it answered, a message it delivered). */
  changed(): Promise<void>;
  /** Resolves once the daemon's connection is waiting for the next message (a poll held, the gateway idle). */
  listening(): Promise<void>;
  /** Edit times (ms) in the owner's chat, oldest first. */
  editTimes(): readonly number[];
  /** The most edits in the owner's chat in any `windowMs`. */
  maxEditsInWindow(windowMs: number): number;
  /** Calls the daemon made to the platform since `mark()`, by method. */
  mark(): number;
  callsSince(mark: number): Record<string, number>;
  close(): Promise<void>;
}

export const wallClockMs = (): number => performance.timeOrigin + performance.now();

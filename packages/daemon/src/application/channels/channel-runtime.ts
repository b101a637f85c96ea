import type { ChannelLiveStatus } from "./ports.js";
import type { TurnStarts } from "../turns/turn-starts.js";
import type { RecoveredState } from "../turns/turn-lifecycle.js";
import { holdLabel } from "@coffer/protocol";
import { restartNotice } from "./progress-text.js";
import { ChannelRunner, type RunnerDeps } from "./channel-runner.js";
import { ChannelAlerts } from "./channel-alerts.js";

const DISABLED: ChannelLiveStatus = { state: "disabled", lastError: null, lastErrorAt: null };

/**
 * Runs one ChannelRunner per enabled channel and routes every running turn of a bound
 * conversation (from any surface) to its channel's relay. A channel's failure stays inside
 * its runner: the daemon, the page and the other channels carry on.
 */
export class ChannelRuntime {
  private readonly runners = new Map<string, ChannelRunner>();
  private detachStarts: (() => void) | null = null;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly starts: TurnStarts,
  ) {}

  /**
   * Start every enabled channel and begin relaying turns. `recovered` (restart recovery) names
   * the conversations whose reply the restart cut off or whose queue it held: their chats are told.
   */
  startAll(recovered: RecoveredState = { interrupted: [], paused: [] }): void {
    // The engine says a turn began; a conversation bound to a running channel gets its relay.
    this.detachStarts ??= this.starts.listen((conversation) => {
      const binding = conversation.channel;
      if (binding?.channelId) this.runners.get(binding.channelId)?.observe(conversation.id, binding.chatId, binding.threadId ?? null);
    });
    for (const channel of this.deps.channels.list()) if (channel.enabled) this.start(channel.id);
    const cutOff = new Set(recovered.interrupted);
    for (const conversationId of new Set([...recovered.interrupted, ...recovered.paused])) {
      const binding = this.deps.chats.getConversation(conversationId)?.channel;
      const runner = binding?.channelId ? this.runners.get(binding.channelId) : undefined;
      if (!binding || !runner) continue;
      const queued = this.deps.pending.countPending(conversationId);
      const hold = this.deps.turnReads.pending(conversationId).hold;
      runner.notify(binding.chatId, binding.threadId ?? null, restartNotice(cutOff.has(conversationId), queued, hold ? holdLabel(hold, new Date(this.deps.clock.now())) : null));
    }
  }

  /** The channels as an alert surface; links in alerts start at `linkBase()`. */
  alertSink(linkBase: () => string): ChannelAlerts {
    return new ChannelAlerts({
      channels: this.deps.channels,
      clock: this.deps.clock,
      running: () => this.runners.keys(),
      notify: (channelId, chatId, text, threadId) => this.runners.get(channelId)?.notify(chatId, threadId ?? null, text),
      linkBase,
      servesGroup: (channelId, chatId) => this.deps.groups.group(channelId, chatId)?.served === true,
    });
  }

  start(channelId: string): void {
    if (this.runners.has(channelId)) return;
    const kind = this.deps.channels.get(channelId)?.kind;
    const platform = kind ? this.deps.platforms.get(kind) : undefined;
    if (!platform) return;
    const runner = new ChannelRunner(channelId, platform, this.deps);
    this.runners.set(channelId, runner);
    runner.start();
  }

  async stop(channelId: string): Promise<void> {
    const runner = this.runners.get(channelId);
    if (!runner) return;
    this.runners.delete(channelId);
    await runner.stop();
  }

  async restart(channelId: string): Promise<void> {
    await this.stop(channelId);
    this.start(channelId);
  }

  status(channelId: string): ChannelLiveStatus {
    return this.runners.get(channelId)?.status ?? DISABLED;
  }

  async close(): Promise<void> {
    this.detachStarts?.();
    this.detachStarts = null;
    await Promise.allSettled([...this.runners.keys()].map((id) => this.stop(id)));
  }
}

import type { AlertSink, HoldNotice, OwnerAlert } from "../alerts/owner-alerts.js";
import type { Clock } from "../ports.js";
import type { ChannelStore } from "./ports.js";
import { alertText, conversationLink, holdText } from "./alert-text.js";

export interface ChannelAlertDeps {
  readonly channels: ChannelStore;
  readonly clock: Clock;
  /** The running channels: only those can deliver. */
  readonly running: () => Iterable<string>;
  readonly notify: (channelId: string, chatId: string, text: string) => void;
  /** The base of links back to the page (COFFER_PUBLIC_URL, else the daemon's own URL). */
  readonly linkBase: () => string;
}

/**
 * Telegram as an alert surface. An alert goes to each running channel's paired owner, unless
 * the conversation is bound to that very chat (it already gets the whole turn relayed there).
 * A hold notice goes to the bound chat, the one whose queue waits.
 */
export class ChannelAlerts implements AlertSink {
  readonly surface = "telegram" as const;

  constructor(private readonly deps: ChannelAlertDeps) {}

  alert(alert: OwnerAlert): void {
    const text = alertText(alert, conversationLink(this.deps.linkBase(), alert.conversation.id));
    for (const channelId of this.deps.running()) {
      const owner = this.deps.channels.get(channelId)?.owner;
      if (!owner) continue;
      const binding = alert.conversation.channel;
      if (binding?.channelId === channelId && binding.chatId === owner.chatId) continue;
      this.deps.notify(channelId, owner.chatId, text);
    }
  }

  holdChanged(notice: HoldNotice): void {
    const binding = notice.conversation.channel;
    if (!binding?.channelId) return;
    if (![...this.deps.running()].includes(binding.channelId)) return;
    this.deps.notify(binding.channelId, binding.chatId, holdText(notice.hold, notice.by, new Date(this.deps.clock.now())));
  }
}

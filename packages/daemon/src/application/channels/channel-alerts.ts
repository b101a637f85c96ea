import { lostDetail, type AlertSink, type AlertWithdrawal, type HoldNotice, type LostQuestion, type OwnerAlert } from "../alerts/owner-alerts.js";
import type { Clock } from "../ports.js";
import type { ChannelStore } from "./ports.js";
import { alertText, conversationLink, holdText, reminderText, withdrawnText } from "./alert-text.js";

export interface ChannelAlertDeps {
  readonly channels: ChannelStore;
  readonly clock: Clock;
  /** The running channels: only those can deliver. */
  readonly running: () => Iterable<string>;
  /** `threadId`: the topic of a group the conversation lives in (a hold notice goes there). */
  readonly notify: (channelId: string, chatId: string, text: string, threadId?: string | null) => void;
  /** The base of links back to the page (COFFER_PUBLIC_URL, else the daemon's own URL). */
  readonly linkBase: () => string;
  /** Whether this channel serves that group now (group-gate.ts): only then does a topic there reach the owner. */
  readonly servesGroup: (channelId: string, chatId: string) => boolean;
}

/** A chat, or one topic/thread of a group: where a line goes. */
interface Place {
  readonly chatId: string;
  readonly threadId: string | null;
}

/**
 * The phone as an alert surface. An alert goes to each running channel's paired owner, unless
 * the conversation lives in one of that channel's chats the owner is in — the private chat, or
 * a topic of a served group — which already gets the whole turn relayed (there, a reminder and a
 * lost question go too, beside the question). A hold notice goes to the bound chat, the one
 * whose queue waits.
 */
export class ChannelAlerts implements AlertSink {
  readonly surface = "telegram" as const;

  constructor(private readonly deps: ChannelAlertDeps) {}

  alert(alert: OwnerAlert): void {
    const link = conversationLink(this.deps.linkBase(), alert.conversation.id);
    for (const channelId of this.deps.running()) {
      const owner = this.deps.channels.get(channelId)?.owner;
      if (!owner) continue;
      const home = this.home(alert.conversation, channelId, owner.chatId);
      // A reminder reaches the bound chat too: its relay showed the question once, long ago.
      if (alert.reminder) this.say(channelId, home ?? { chatId: owner.chatId, threadId: null }, reminderText(alert, link, home !== null));
      else if (!home) this.deps.notify(channelId, owner.chatId, alertText(alert, link));
    }
  }

  /**
   * A question the phone was told of is closed. A bound chat's relay already says which answer
   * won; any other owner chat gets one line, so an old "Needs you" does not stay a call to act.
   */
  withdrawn(w: AlertWithdrawal): void {
    if (!w.phoned) return;
    for (const channelId of this.deps.running()) {
      const owner = this.deps.channels.get(channelId)?.owner;
      if (!owner || this.home(w.conversation, channelId, owner.chatId)) continue;
      this.deps.notify(channelId, owner.chatId, withdrawnText(w));
    }
  }

  /** A question a restart took with its turn: each owner hears it once, where the conversation lives (its relay ended with the process). */
  lost(lost: LostQuestion): void {
    const name = lost.conversation.title?.trim() || "Untitled conversation";
    const text = `⚠️ Lost to a restart: ${name}\n${lostDetail(lost)}\n${conversationLink(this.deps.linkBase(), lost.conversation.id)}`;
    for (const channelId of this.deps.running()) {
      const owner = this.deps.channels.get(channelId)?.owner;
      if (owner) this.say(channelId, this.home(lost.conversation, channelId, owner.chatId) ?? { chatId: owner.chatId, threadId: null }, text);
    }
  }

  /** One message to each running channel's paired owner (the morning brief); how many chats it went to. */
  toOwners(text: string): number {
    let chats = 0;
    for (const channelId of this.deps.running()) {
      const owner = this.deps.channels.get(channelId)?.owner;
      if (!owner) continue;
      this.deps.notify(channelId, owner.chatId, text);
      chats++;
    }
    return chats;
  }

  /** Where this channel relays the conversation, when the owner is there: null when it is bound elsewhere or to a group no longer served. */
  private home(conversation: OwnerAlert["conversation"], channelId: string, ownerChat: string): Place | null {
    const binding = conversation.channel;
    if (binding?.channelId !== channelId) return null;
    if (binding.chatId !== ownerChat && !this.deps.servesGroup(channelId, binding.chatId)) return null;
    return { chatId: binding.chatId, threadId: binding.threadId ?? null };
  }

  private say(channelId: string, place: Place, text: string): void {
    this.deps.notify(channelId, place.chatId, text, place.threadId);
  }

  holdChanged(notice: HoldNotice): void {
    const binding = notice.conversation.channel;
    if (!binding?.channelId) return;
    if (![...this.deps.running()].includes(binding.channelId)) return;
    this.deps.notify(binding.channelId, binding.chatId, holdText(notice.hold, notice.by, new Date(this.deps.clock.now())), binding.threadId ?? null);
  }
}

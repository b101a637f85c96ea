import type { ChatKey } from "./ports.js";

/** A group chat the bot was added to, as last counted (group-gate.ts decides whether it is served). */
export interface ChannelGroup {
  readonly chatId: string;
  /** Topics are on (a Telegram forum supergroup): only then is each topic its own conversation. */
  readonly isForum: boolean;
  /** Members the platform counted, the bot included; 0 once the bot could not count them (removed). */
  readonly members: number;
  /** Only the owner and the bot, Topics on: the owner's messages here are taken. */
  readonly served: boolean;
  readonly checkedAt: number;
  /** The last line the group was told about why it is not served (said once, not per message). */
  readonly notice: string | null;
}

/** Groups and the topics the channel opened in them (migration 0022). */
export interface ChannelGroupStore {
  group(channelId: string, chatId: string): ChannelGroup | null;
  saveGroup(channelId: string, group: ChannelGroup): void;
  /** The name the channel gave a topic it opened; null for a topic the owner made. */
  topicName(chat: ChatKey): string | null;
  setTopicName(chat: ChatKey, name: string): void;
}

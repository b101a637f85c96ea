import type { AgentConfig } from "./agent-config.js";

export const PLACEHOLDER_TITLE = "New conversation";
export const AUTO_TITLE_MAX = 60;

/** The IM chat a conversation is bound to: its replies are relayed there. */
export interface ChannelBinding {
  /** The platform, e.g. "telegram". */
  readonly channel: string;
  readonly chatId: string;
  /** The configured channel (bot) it goes through; null for a binding made over REST by hand. */
  readonly channelId: string | null;
  /** The forum topic / thread inside the chat it lives in; null (or absent) for the chat itself. */
  readonly threadId?: string | null;
}

export interface Conversation {
  readonly id: string;
  readonly agentKey: string;
  readonly title: string;
  /** True once the owner named it: auto-titles never overwrite an owner's title. */
  readonly titleSetByOwner: boolean;
  readonly modelId: string | null;
  readonly agentConfig: AgentConfig;
  readonly channel: ChannelBinding | null;
  readonly queuePaused: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly archivedAt: number | null;
}

/** The title a conversation gets from its first user message: one line, at most 60 characters. */
export function deriveTitle(text: string): string | null {
  const oneLine = text.replace(/\s+/g, " ").trim();
  if (!oneLine) return null;
  if (oneLine.length <= AUTO_TITLE_MAX) return oneLine;
  const cut = oneLine.slice(0, AUTO_TITLE_MAX - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > AUTO_TITLE_MAX / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

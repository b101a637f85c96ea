/**
 * What the Discord connection hands upward: plain data, no library types, so the channel seam
 * (issue 26) can map these onto its platform-neutral inbound events without importing
 * @discordjs anywhere else.
 */
import { DISCORD_MESSAGE_LIMIT } from "./discord-split.js";

export interface DiscordUser {
  readonly id: string;
  readonly username: string;
}

export interface DiscordInboundAttachment {
  readonly id: string;
  readonly filename: string;
  readonly size: number;
  readonly contentType: string | null;
  /** The CDN URL; fetch it with `DiscordConnection.download`. */
  readonly url: string;
}

export interface DiscordMessageEvent {
  readonly kind: "message";
  readonly id: string;
  readonly channelId: string;
  /** Null in a DM. */
  readonly guildId: string | null;
  /** The text channel a thread hangs under, when the message was written in a thread. */
  readonly threadParentId: string | null;
  readonly author: DiscordUser;
  readonly content: string;
  readonly attachments: readonly DiscordInboundAttachment[];
}

export interface DiscordCommandEvent {
  readonly kind: "command";
  readonly interactionId: string;
  readonly interactionToken: string;
  readonly channelId: string;
  readonly guildId: string | null;
  /** The text channel a thread hangs under, when the command was run in a thread. */
  readonly threadParentId: string | null;
  readonly user: DiscordUser;
  readonly name: string;
  readonly options: Readonly<Record<string, string | number | boolean>>;
}

export interface DiscordButtonEvent {
  readonly kind: "button";
  readonly interactionId: string;
  readonly interactionToken: string;
  readonly channelId: string;
  readonly guildId: string | null;
  /** The text channel a thread hangs under, when the button sits in a thread. */
  readonly threadParentId: string | null;
  readonly user: DiscordUser;
  /** The bot message the button sits under. */
  readonly messageId: string;
  readonly customId: string;
}

export type DiscordInbound = DiscordMessageEvent | DiscordCommandEvent | DiscordButtonEvent;

/**
 * What makes redelivery safe, to persist after each handled event: the gateway session (to
 * RESUME from the last *handled* sequence after a restart) and, per channel, the newest message
 * handled (to skip duplicates and to fetch from history what a dead session never delivered).
 */
export interface DiscordCursor {
  readonly session: { readonly id: string; readonly sequence: number; readonly resumeUrl: string } | null;
  readonly lastMessageIds: Readonly<Record<string, string>>;
}

export interface DiscordButton {
  readonly id: string;
  readonly label: string;
  readonly style?: "primary" | "secondary" | "success" | "danger";
  readonly disabled?: boolean;
}

export interface DiscordOutgoingFile {
  readonly name: string;
  readonly data: Buffer | Uint8Array;
  readonly contentType?: string;
}

export interface DiscordOutgoing {
  readonly content: string;
  /** Rows of buttons (Discord allows 5 rows of 5). */
  readonly buttons?: readonly (readonly DiscordButton[])[];
  readonly files?: readonly DiscordOutgoingFile[];
  /** Discord's enforced nonce: a second create with the same one (within minutes) returns the first message instead. */
  readonly nonce?: string;
}

export interface DiscordSlashCommand {
  readonly name: string;
  readonly description: string;
  readonly options?: readonly { readonly name: string; readonly description: string; readonly type: "string" | "integer" | "boolean"; readonly required?: boolean }[];
}

/**
 * Discord's limits the channel seam will declare for this adapter: message length (the
 * splitter's), upload size for a server without boosts (Discord answers 413 / 40005 above
 * it), and buttons (5 rows of 5).
 */
export const DISCORD_LIMITS = {
  messageLength: DISCORD_MESSAGE_LIMIT,
  uploadBytes: 10 * 1024 * 1024,
  buttonRows: 5,
  buttonsPerRow: 5,
} as const;

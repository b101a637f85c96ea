import { DomainError } from "./errors.js";

export class ChannelNotFound extends DomainError {
  readonly code = "CHANNEL_NOT_FOUND";
  constructor(id: string) {
    super(`channel not found: ${id}`, { id });
  }
}

export class ChannelNameTaken extends DomainError {
  readonly code = "CHANNEL_NAME_TAKEN";
  constructor(name: string) {
    super(`a channel named "${name}" already exists`, { name });
  }
}

/** A bot answers one poller: two channels on the same bot would steal each other's updates. */
export class ChannelBotTaken extends DomainError {
  readonly code = "CHANNEL_BOT_TAKEN";
  constructor(botUsername: string, channelName: string) {
    super(`the bot @${botUsername} is already used by the channel "${channelName}"`, { bot: botUsername, channel: channelName });
  }
}

export class ChannelTokenRejected extends DomainError {
  readonly code = "CHANNEL_TOKEN_REJECTED";
  constructor(ref: string, why: string) {
    super(`${why.replace(/\.$/, "")}. Store the token @BotFather gave you under "${ref}" and try again.`, { ref });
  }
}

/** `why` is already a sentence saying what to check; the low-level cause (ENOTFOUND…) is only in details. */
export class ChannelUnreachable extends DomainError {
  readonly code = "CHANNEL_UNREACHABLE";
  constructor(ref: string, why: string, cause?: string) {
    super(`The bot token in "${ref}" could not be checked, so nothing was stored. ${why}`, cause ? { ref, cause } : { ref });
  }
}

/** A channel of a kind no platform adapter registered (the wire only checks the name's shape). */
export class UnknownChannelKind extends DomainError {
  readonly code = "UNKNOWN_CHANNEL_KIND";
  constructor(kind: string, known: readonly string[]) {
    super(`no channel platform "${kind}"; this daemon speaks: ${known.join(", ") || "none"}`, { kind, known: [...known] });
  }
}

/** The credential map does not match what the channel's platform declares. */
export class ChannelCredentialsInvalid extends DomainError {
  readonly code = "CHANNEL_CREDENTIALS_INVALID";
  constructor(platform: string, why: string, declared: readonly string[]) {
    super(`credentials for ${platform}: ${why} (it declares: ${declared.join(", ")})`, { declared: [...declared] });
  }
}

import type { Clock } from "../ports.js";
import type { ChannelGroup, ChannelGroupStore } from "./group-ports.js";
import { PlatformFailure, type BotConnection, type ChannelRecord, type InboundUpdate, type ThreadWords } from "./ports.js";
import { gateLines, TOPIC_WORDS } from "./thread-words.js";

/**
 * How long a group's member count is trusted. Joins and leaves are rechecked at once (their
 * service messages); this bounds what a missed one could let through
 * (docs/decisions.md, "Forum topics as conversations").
 */
export const MEMBER_RECHECK_MS = 5 * 60_000;

/** A count to take again on the owner's next message (someone else spoke in the group). */
const STALE = 0;

/** Only the owner and the bot. */
const SERVED_MEMBERS = 2;

/** Telegram's lines (the default words); a platform's own come from its `threadWords`. */
const TOPIC_LINES = gateLines(TOPIC_WORDS);
export const CROWDED_TEXT = TOPIC_LINES.crowded;
export const NOT_FORUM_TEXT = TOPIC_LINES.notForum;
export const SERVED_TEXT = TOPIC_LINES.served;

/** What a group update is to the channel. */
export type GroupVerdict = "owner" | "stranger" | "quiet";

export interface GroupGateDeps {
  readonly groups: ChannelGroupStore;
  readonly clock: Clock;
  /** The live connection (null before it is up). */
  connection(): BotConnection | null;
  /** A line into the group's main chat, delivered like any message. */
  say(chatId: string, text: string): void;
  /** The platform's words for its groups and threads (Telegram's when absent). */
  readonly words?: ThreadWords;
}

/**
 * Which group chats a channel serves: a group holding only the paired owner and the bot, with
 * Topics on. Anyone else's message is a stranger's (counted, never stored); the owner's message
 * in a group that is not served is dropped after one line saying why.
 */
export class GroupGate {
  private readonly lines: ReturnType<typeof gateLines>;

  constructor(private readonly deps: GroupGateDeps) {
    this.lines = gateLines(deps.words ?? TOPIC_WORDS);
  }

  async admit(channel: ChannelRecord, update: InboundUpdate): Promise<GroupVerdict> {
    const owner = channel.owner;
    const fromOwner = owner !== null && update.sender?.id === owner.userId;
    // An unpaired channel serves no group, and a stranger never makes the bot call the platform.
    if (!owner) return update.sender ? "stranger" : "quiet";
    const group = fromOwner || update.membersChanged ? await this.check(channel.id, update, fromOwner) : this.deps.groups.group(channel.id, update.chatId);
    if (!fromOwner) {
      if (!update.sender || update.membersChanged) return "quiet";
      // Someone else talking in a served group is a member the count missed (Discord tells a bot
      // of joins only with a privileged intent): the count goes stale, so the owner's next message
      // recounts. No platform call on the stranger's behalf.
      if (group?.served && group.checkedAt !== STALE) this.deps.groups.saveGroup(channel.id, { ...group, checkedAt: STALE });
      return "stranger";
    }
    if (update.membersChanged || !group?.served) return "quiet";
    // A service message (a topic made, a pin) carries nothing for the agent.
    return update.text !== null || update.files?.length || update.callback ? "owner" : "quiet";
  }

  /** The group as counted now, when its count is stale or its members changed; one line on each change of verdict. */
  private async check(channelId: string, update: InboundUpdate, fromOwner: boolean): Promise<ChannelGroup | null> {
    const { groups, clock } = this.deps;
    const now = clock.now();
    const was = groups.group(channelId, update.chatId);
    const isForum = update.isForum ?? was?.isForum ?? false;
    const fresh = was && !update.membersChanged && was.isForum === isForum && was.checkedAt !== STALE && now - was.checkedAt < MEMBER_RECHECK_MS;
    if (fresh) return was;
    const connection = this.deps.connection();
    if (!connection?.memberCount) return was;
    let members: number;
    try {
      members = await connection.memberCount(update.chatId);
    } catch (err) {
      // Removed from the group (or it is gone): nothing is served there; anything else is retried by the runner.
      if (err instanceof PlatformFailure && (err.kind === "rejected" || err.kind === "unauthorized")) members = 0;
      // Telegram is struggling: the last count stands (the owner's message is not lost to a
      // recount); a group never counted cannot be served yet, and the update fails as any would.
      else if (was) return was;
      else throw err;
    }
    const served = members === SERVED_MEMBERS && isForum;
    const line = served ? null : members > SERVED_MEMBERS ? this.lines.crowded : members === SERVED_MEMBERS ? this.lines.notForum : null;
    // Said once per change, and only where the owner is known to be: their own message, or a group served until now.
    const tell = line !== null && line !== was?.notice && (fromOwner || was?.served === true);
    const group: ChannelGroup = { chatId: update.chatId, isForum, members, served, checkedAt: now, notice: tell ? line : served ? null : (was?.notice ?? null) };
    groups.saveGroup(channelId, group);
    if (tell) this.deps.say(update.chatId, line);
    else if (served && !was?.served && fromOwner) this.deps.say(update.chatId, this.lines.served);
    return group;
  }
}

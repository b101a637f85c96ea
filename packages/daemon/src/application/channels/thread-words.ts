import { PLACEHOLDER_TITLE } from "../../domain/conversation.js";
import type { ThreadWords } from "./ports.js";

/**
 * The lines said about threads as conversations, written once here for every platform: the
 * platform only declares its words (`ChatPlatform.threadWords`), so no application code asks
 * which platform it is talking to.
 */

/** Telegram's forum topics: the words when a platform declares none. */
export const TOPIC_WORDS: ThreadWords = {
  thread: "topic",
  group: "group",
  place: "group",
  grant: "Make me an admin who can manage topics",
  turnOn: "Turn on Topics for this group (group settings → Topics) and make me an admin who can manage topics: then each topic is its own conversation.",
};

/** What the group gate says when a group is (or stops being) served. */
export function gateLines(w: ThreadWords) {
  return {
    crowded: `I only work in a ${w.group} with just you and me.`,
    notForum: w.turnOn,
    served: `Ready: each ${w.thread} in this ${w.place} is its own conversation with its own queue. /new here opens a new ${w.thread}; /list, then /open <n> continues one in a ${w.thread} of its own.`,
  };
}

/** What /new and /open say in a group's main chat and in the thread they open. */
export function threadCommandLines(w: ThreadWords) {
  return {
    newHere: (agent: string) => `🆕 New conversation with ${agent}. Write here: this ${w.thread} is its own conversation.`,
    opened: (agent: string) => `🆕 Opened a new ${w.thread} for a conversation with ${agent}: “${PLACEHOLDER_TITLE}” (renamed after its first message).`,
    hasOne: (title: string) => `“${title}” already has its ${w.thread} in this ${w.place}: write there.`,
    continuing: (title: string, agent: string) => `Continuing “${title}” (${agent}) here. Your messages in this ${w.thread} go to it.`,
    openedOld: (title: string) => `Opened “${title}” in a ${w.thread} of its own.`,
    unsupported: `⚠️ ${w.thread[0]!.toUpperCase()}${w.thread.slice(1)}s cannot be opened on this platform.`,
    refused: (why: string) => `⚠️ I could not open a ${w.thread} (${why}). ${w.grant}, then try again.`,
  };
}

import type { MessageListOut, MessageListQuery } from "@coffer/protocol";
import type { ConversationViews } from "./conversation-views.js";
import type { MessageStore } from "./ports.js";

export interface ConversationThreadDeps {
  /** The thread, read a page at a time. */
  readonly messages: Pick<MessageStore, "listMessages">;
  readonly views: ConversationViews;
}

const DEFAULT_THREAD_PAGE = 200;

/** A conversation's thread as the page and the CLI read it: its messages, newest page first. */
export class ConversationThread {
  constructor(private readonly deps: ConversationThreadDeps) {}

  messages(id: string, query: MessageListQuery): MessageListOut {
    this.deps.views.require(id);
    const { messages, hasMore } = this.deps.messages.listMessages(id, query.before, query.limit ?? DEFAULT_THREAD_PAGE);
    return { messages, has_more: hasMore };
  }
}

import type { Conversation } from "../../domain/conversation.js";
import { ConversationNotFound } from "../../domain/errors.js";
import type { ConversationStore } from "../ports.js";

/** The conversation, or CONVERSATION_NOT_FOUND: what every turn room checks first. */
export function requireConversation(store: Pick<ConversationStore, "getConversation">, id: string): Conversation {
  const conv = store.getConversation(id);
  if (!conv) throw new ConversationNotFound(id);
  return conv;
}

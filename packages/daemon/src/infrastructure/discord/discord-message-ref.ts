/**
 * The message id the Discord adapter hands the application. In Discord a thread is a channel of
 * its own, but the seam's edit and delete name only the chat (the thread's parent) and the
 * message: so a message sent into a thread is handed out as "<threadId>/<messageId>", and edit
 * and delete read the thread back from it. A message in a DM or a plain channel keeps its bare
 * snowflake, exactly as before threads were served: nothing persisted changes meaning.
 */

export function messageRef(threadId: string | null, messageId: string): string {
  return threadId ? `${threadId}/${messageId}` : messageId;
}

/** The channel a message lives in (its thread, or `chatId`) and its own id. */
export function parseMessageRef(chatId: string, ref: string): { channelId: string; messageId: string } {
  const slash = ref.indexOf("/");
  return slash < 0 ? { channelId: chatId, messageId: ref } : { channelId: ref.slice(0, slash), messageId: ref.slice(slash + 1) };
}

import type { BotConnection } from "../../application/channels/ports.js";

/**
 * A BotConnection usable at once over one still loading (an adapter imports its SDK on the first
 * connection, not at start): each call waits for it, then runs on the real one. A failed load
 * surfaces on the first call, where the runner already handles a failure. `groups`: the platform
 * serves group threads, so the optional group calls are offered too (they must exist before the
 * real connection does: the group gate asks whether they are there).
 */
export function deferredConnection(connection: Promise<BotConnection>, options: { groups?: boolean } = {}): BotConnection {
  connection.catch(() => undefined);
  const groups: Pick<BotConnection, "memberCount" | "createTopic" | "renameTopic"> = options.groups
    ? {
        memberCount: async (chatId) => (await connection).memberCount!(chatId),
        createTopic: async (chatId, name) => (await connection).createTopic!(chatId, name),
        renameTopic: async (chatId, threadId, name) => (await connection).renameTopic!(chatId, threadId, name),
      }
    : {};
  return {
    ...groups,
    getMe: async () => (await connection).getMe(),
    receive: async (cursor, sink, signal) => (await connection).receive(cursor, sink, signal),
    send: async (chatId, threadId, message, signal, key) => (await connection).send(chatId, threadId, message, signal, key),
    edit: async (chatId, messageId, message) => (await connection).edit(chatId, messageId, message),
    delete: async (chatId, messageId) => (await connection).delete(chatId, messageId),
    answerCallback: async (callbackId, text) => (await connection).answerCallback(callbackId, text),
    setCommands: async (chatId, commands) => (await connection).setCommands(chatId, commands),
    clearCommands: async (chatId) => (await connection).clearCommands(chatId),
    downloadFile: async (fileId, signal) => (await connection).downloadFile(fileId, signal),
    sendFile: async (chatId, threadId, file, caption, signal, key) => (await connection).sendFile(chatId, threadId, file, caption, signal, key),
  };
}

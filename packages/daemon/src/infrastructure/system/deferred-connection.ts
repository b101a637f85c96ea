import type { BotConnection } from "../../application/channels/ports.js";

/**
 * A BotConnection usable at once over one still loading (an adapter imports its SDK on the first
 * connection, not at start): each call waits for it, then runs on the real one. A failed load
 * surfaces on the first call, where the runner already handles a failure.
 */
export function deferredConnection(connection: Promise<BotConnection>): BotConnection {
  connection.catch(() => undefined);
  return {
    getMe: async () => (await connection).getMe(),
    receive: async (cursor, sink, signal) => (await connection).receive(cursor, sink, signal),
    send: async (chatId, threadId, message, signal) => (await connection).send(chatId, threadId, message, signal),
    edit: async (chatId, messageId, text) => (await connection).edit(chatId, messageId, text),
    delete: async (chatId, messageId) => (await connection).delete(chatId, messageId),
    answerCallback: async (callbackId, text) => (await connection).answerCallback(callbackId, text),
    setCommands: async (chatId, commands) => (await connection).setCommands(chatId, commands),
    clearCommands: async (chatId) => (await connection).clearCommands(chatId),
    downloadFile: async (fileId, signal) => (await connection).downloadFile(fileId, signal),
    sendFile: async (chatId, threadId, file, caption, signal) => (await connection).sendFile(chatId, threadId, file, caption, signal),
  };
}

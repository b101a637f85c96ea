import { describe, expect, test } from "vitest";
import { toInboundUpdate } from "./discord-inbound.js";
import { messageRef, parseMessageRef } from "./discord-message-ref.js";

const ada = { id: "1", username: "ada" };
const message = { kind: "message" as const, id: "50", author: ada, content: "hi", attachments: [] };
const command = { kind: "command" as const, interactionId: "60", interactionToken: "tok", user: ada, name: "new", options: {} };

describe("Discord events as the seam keys them", () => {
  test("a DM is a private chat; a server channel is a group's main chat; a thread is keyed by its parent and itself", () => {
    expect(toInboundUpdate({ ...message, channelId: "dm", guildId: null, threadParentId: null })).toMatchObject({ chatId: "dm", threadId: null, chatType: "private" });
    expect(toInboundUpdate({ ...message, channelId: "dm", guildId: null, threadParentId: null }).isForum).toBeUndefined();
    expect(toInboundUpdate({ ...message, channelId: "text", guildId: "g", threadParentId: null })).toMatchObject({ chatId: "text", threadId: null, chatType: "group", isForum: true });
    expect(toInboundUpdate({ ...message, channelId: "th", guildId: "g", threadParentId: "text" })).toMatchObject({ chatId: "text", threadId: "th", chatType: "group", isForum: true });
    expect(toInboundUpdate({ ...command, channelId: "th", guildId: "g", threadParentId: "text" })).toMatchObject({ chatId: "text", threadId: "th", text: "/new" });
    const tap = { kind: "button" as const, interactionId: "70", interactionToken: "tok", user: ada, messageId: "9", customId: "st:x", channelId: "th", guildId: "g", threadParentId: "text" };
    expect(toInboundUpdate(tap)).toMatchObject({ chatId: "text", threadId: "th", callback: { id: "70:tok", data: "st:x" } });
  });

  test("a message id names its thread; a DM's or a channel's stays the bare snowflake", () => {
    expect(messageRef(null, "9")).toBe("9");
    expect(parseMessageRef("dm", "9")).toEqual({ channelId: "dm", messageId: "9" });
    expect(messageRef("th", "9")).toBe("th/9");
    expect(parseMessageRef("text", "th/9")).toEqual({ channelId: "th", messageId: "9" });
  });
});

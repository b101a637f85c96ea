import type { Update } from "grammy/types";
import { describe, expect, test } from "vitest";
import { toInboundUpdate } from "./telegram-updates.js";

const ADA = { id: 7, is_bot: false, first_name: "Ada" };
const forum = { id: -1001, type: "supergroup", title: "Desk", is_forum: true } as const;

function message(fields: Record<string, unknown>, chat: Record<string, unknown> = forum): Update {
  return { update_id: 1, message: { message_id: 10, date: 0, chat, from: ADA, ...fields } } as unknown as Update;
}

describe("Telegram updates in groups", () => {
  test("a forum topic's message names its topic; General has none; the chat says it is a forum", () => {
    expect(toInboundUpdate(message({ text: "hi", message_thread_id: 5, is_topic_message: true }))).toMatchObject({ chatType: "group", threadId: "5", isForum: true });
    expect(toInboundUpdate(message({ text: "hi" }))).toMatchObject({ chatType: "group", threadId: null, isForum: true });
    // A reply in a plain supergroup carries a thread id too, but it is not a topic.
    const plain = { id: -1002, type: "supergroup", title: "Plain" };
    expect(toInboundUpdate(message({ text: "re", message_thread_id: 9 }, plain))).toMatchObject({ threadId: null, isForum: false });
  });

  test("joins and leaves (the bot's own arrival too) are marked for a recount; a private chat has no forum flag", () => {
    expect(toInboundUpdate(message({ new_chat_members: [{ id: 42, is_bot: true, first_name: "Coffer" }] }))).toMatchObject({ membersChanged: true, text: null });
    expect(toInboundUpdate(message({ left_chat_member: { id: 9, is_bot: false, first_name: "Eve" } }))).toMatchObject({ membersChanged: true });
    const dm = toInboundUpdate(message({ text: "hi" }, { id: 7, type: "private", first_name: "Ada" }));
    expect(dm).not.toHaveProperty("isForum");
    expect(dm).not.toHaveProperty("membersChanged");
  });
});

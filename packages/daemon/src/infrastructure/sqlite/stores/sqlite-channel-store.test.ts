import { expect, test } from "vitest";
import type { NewChannel } from "../../../application/channels/ports.js";
import type { Db } from "../database.js";
import { tempDatabases } from "../../../../test/support/temp-database.js";
import { sqliteAlbumPartStore } from "./sqlite-album-part-store.js";
import { SqliteChannelStore } from "./sqlite-channel-store.js";
import { SqliteConversationStore } from "./sqlite-conversation-store.js";
import { SearchIndex } from "../search/search-index.js";

const freshDatabase = tempDatabases("coffer-channels-");

function setup() {
  const db = freshDatabase();
  return { db, store: new SqliteChannelStore(db), chats: new SqliteConversationStore(db, new SearchIndex(db)) };
}

function channel(id: string, overrides: Partial<NewChannel> = {}): NewChannel {
  return {
    id,
    kind: "telegram",
    name: `bot-${id}`,
    credentialRefs: { bot_token: `secret:channel:${id}` },
    defaultAgent: "claude",
    defaultCwd: "/home/me/project",
    defaultModel: null,
    bot: { id: `9${id.length}${id}`, username: `${id}_bot`, name: `Bot ${id}` },
    now: 1_000,
    ...overrides,
  };
}

const count = (db: Db, table: string, channelId: string) =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE channel_id = ?`).get(channelId) as { n: number }).n;

test("an inserted channel reads back whole, by id, name and bot id; list orders by creation then name", () => {
  const { store } = setup();
  store.insert(channel("b", { name: "zeta", now: 2_000 }));
  store.insert(channel("c", { name: "beta", now: 2_000 }));
  store.insert(channel("a", { name: "omega", now: 1_000 }));

  expect(store.get("a")).toEqual({
    id: "a",
    kind: "telegram",
    name: "omega",
    credentialRefs: { bot_token: "secret:channel:a" },
    defaultAgent: "claude",
    defaultCwd: "/home/me/project",
    defaultModel: null,
    enabled: true,
    bot: { id: "91a", username: "a_bot", name: "Bot a" },
    owner: null,
    cursor: null,
    messagesIn: 0,
    messagesOut: 0,
    strangersIgnored: 0,
    createdAt: 1_000,
    updatedAt: 1_000,
  });
  expect(store.list().map((c) => c.name)).toEqual(["omega", "beta", "zeta"]);
  expect(store.findByName("beta")?.id).toBe("c");
  expect(store.findByBotId("91b")?.id).toBe("b");
  expect(store.get("nope")).toBeNull();
  expect(store.findByName("nope")).toBeNull();
  expect(store.findByBotId("nope")).toBeNull();
});

test("a channel without a bot identity reads back with bot null", () => {
  const { db, store } = setup();
  store.insert(channel("a"));
  db.prepare("UPDATE channels SET bot_id = NULL, bot_username = NULL, bot_name = NULL WHERE id = 'a'").run();
  expect(store.get("a")?.bot).toBeNull();
});

test("names are unique, and so is a bot within its kind", () => {
  const { store } = setup();
  store.insert(channel("a"));
  expect(() => store.insert(channel("b", { name: "bot-a" }))).toThrow(/UNIQUE/);
  expect(() => store.insert(channel("c", { bot: { id: "91a", username: "other", name: "Other" } }))).toThrow(/UNIQUE/);
  expect(store.list().map((c) => c.id)).toEqual(["a"]);
});

test("update changes only the fields given; null clears cwd and model", () => {
  const { store } = setup();
  store.insert(channel("a", { defaultModel: "opus" }));
  const before = store.get("a")!;

  store.update("a", { name: "renamed" }, 2_000);
  expect(store.get("a")).toEqual({ ...before, name: "renamed", updatedAt: 2_000 });

  store.update("a", { defaultCwd: null, defaultModel: undefined }, 3_000);
  expect(store.get("a")).toEqual({ ...before, name: "renamed", defaultCwd: null, updatedAt: 3_000 });

  store.update("a", { defaultModel: null, defaultAgent: "codex", credentialRefs: { bot_token: "secret:channel:a2" }, bot: { id: "77", username: "new_bot", name: "New" } }, 4_000);
  expect(store.get("a")).toEqual({
    ...before,
    name: "renamed",
    defaultCwd: null,
    defaultModel: null,
    defaultAgent: "codex",
    credentialRefs: { bot_token: "secret:channel:a2" },
    bot: { id: "77", username: "new_bot", name: "New" },
    updatedAt: 4_000,
  });
  expect(store.findByBotId("91a")).toBeNull();

  store.update("a", {}, 5_000);
  expect(store.get("a")?.defaultAgent).toBe("codex");
  expect(store.get("a")?.updatedAt).toBe(5_000);
});

test("setEnabled, setOwner and setCursor write their fields", () => {
  const { store } = setup();
  store.insert(channel("a"));
  store.setEnabled("a", false, 2_000);
  expect(store.get("a")).toMatchObject({ enabled: false, updatedAt: 2_000 });
  store.setEnabled("a", true, 2_500);
  expect(store.get("a")?.enabled).toBe(true);

  store.setOwner("a", { chatId: "42", userId: "4242", name: "Me", pairedAt: 3_000 });
  expect(store.get("a")?.owner).toEqual({ chatId: "42", userId: "4242", name: "Me", pairedAt: 3_000 });

  store.setCursor("a", "1234567");
  expect(store.get("a")?.cursor).toBe("1234567");
  // Opaque: a platform's own cursor comes back as written; null forgets it.
  store.setCursor("a", '{"session":"s9","seq":42}');
  expect(store.get("a")?.cursor).toBe('{"session":"s9","seq":42}');
  store.setCursor("a", null);
  expect(store.get("a")?.cursor).toBeNull();
});

test("bump adds to one counter of one channel", () => {
  const { store } = setup();
  store.insert(channel("a"));
  store.insert(channel("b"));
  store.bump("a", "messagesIn");
  store.bump("a", "messagesIn", 4);
  store.bump("a", "strangersIgnored", 2);
  store.bump("a", "messagesOut", 3);
  expect(store.get("a")).toMatchObject({ messagesIn: 5, strangersIgnored: 2, messagesOut: 3 });
  expect(store.get("b")).toMatchObject({ messagesIn: 0, strangersIgnored: 0, messagesOut: 0 });
});

test("each chat (and thread) keeps its own active conversation, replaced on set", () => {
  const { store } = setup();
  store.insert(channel("a"));
  store.insert(channel("b"));
  const dm = { channelId: "a", chatId: "42", threadId: "" };
  const topic = { channelId: "a", chatId: "42", threadId: "7" };
  expect(store.activeConversation(dm)).toBeNull();

  store.setActiveConversation(dm, "c1");
  store.setActiveConversation(topic, "c2");
  store.setActiveConversation({ channelId: "b", chatId: "42", threadId: "" }, "c3");
  expect(store.activeConversation(dm)).toBe("c1");
  expect(store.activeConversation(topic)).toBe("c2");

  store.setActiveConversation(dm, "c4");
  expect(store.activeConversation(dm)).toBe("c4");
  expect(store.activeConversation({ channelId: "b", chatId: "42", threadId: "" })).toBe("c3");
});

test("the outbox delivers in enqueue order across calls, per channel, with the message as enqueued", () => {
  const { store } = setup();
  store.insert(channel("a"));
  store.insert(channel("b"));
  store.enqueue("a", "42", null, [{ text: "one", html: "<b>one</b>" }, { text: "two", silent: true }], 1_000);
  store.enqueue("b", "9", "3", [{ text: "other" }], 1_500);
  store.enqueue("a", "43", "7", [{ text: "three" }], 2_000);

  const rows = store.outbox("a", 10);
  expect(rows.map((r) => r.message)).toEqual([{ text: "one", html: "<b>one</b>" }, { text: "two", silent: true }, { text: "three" }]);
  expect(rows.map((r) => [r.chatId, r.threadId, r.channelId, r.attempts])).toEqual([
    ["42", null, "a", 0],
    ["42", null, "a", 0],
    ["43", "7", "a", 0],
  ]);
  expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((x, y) => x - y));
  expect(store.outbox("a", 2).map((r) => r.message.text)).toEqual(["one", "two"]);
  expect(store.countOutbox("a")).toBe(3);
  expect(store.outbox("b", 10)).toEqual([{ id: expect.any(Number), channelId: "b", chatId: "9", threadId: "3", message: { text: "other" }, attempts: 0 }]);
});

test("an enqueue that fails part-way queues nothing", () => {
  const { store } = setup();
  store.insert(channel("a"));
  // A null text violates NOT NULL on the second row: the first must roll back with it.
  const bad = [{ text: "first" }, { text: null as unknown as string }];
  expect(() => store.enqueue("a", "42", null, bad, 1_000)).toThrow(/NOT NULL/);
  expect(store.countOutbox("a")).toBe(0);
});

test("delivered removes the row and counts it out; failedAttempt counts attempts", () => {
  const { store } = setup();
  store.insert(channel("a"));
  store.enqueue("a", "42", null, [{ text: "one" }, { text: "two" }], 1_000);
  const [first, second] = store.outbox("a", 10);

  store.failedAttempt(first!.id);
  store.failedAttempt(first!.id);
  expect(store.outbox("a", 10).map((r) => r.attempts)).toEqual([2, 0]);

  store.delivered(first!.id);
  expect(store.outbox("a", 10).map((r) => r.id)).toEqual([second!.id]);
  expect(store.get("a")?.messagesOut).toBe(1);

  // A row already gone (delivered twice) counts nothing.
  store.delivered(first!.id);
  expect(store.get("a")?.messagesOut).toBe(1);
});

test("delete cascades to chats and outbox; the conversations stay until the chat store unbinds them", () => {
  const { db, store, chats } = setup();
  store.insert(channel("a"));
  store.insert(channel("b"));
  const conversation = (id: string, channelId: string | null) =>
    chats.insertConversation({
      id,
      agentKey: "claude",
      title: id,
      titleSetByOwner: false,
      agentConfig: {},
      channel: channelId === null ? null : { channel: "telegram", chatId: "42", channelId },
      now: 1_000,
    });
  conversation("conv-a", "a");
  conversation("conv-b", "b");
  conversation("conv-free", null);
  chats.setChannelBinding("conv-free", { channel: "telegram", chatId: "43", channelId: "a" });
  expect(chats.getConversation("conv-free")?.channel).toEqual({ channel: "telegram", chatId: "43", channelId: "a" });
  expect(store.countBoundConversations("a")).toBe(2);
  expect(store.countBoundConversations("b")).toBe(1);

  for (const id of ["a", "b"]) {
    store.setActiveConversation({ channelId: id, chatId: "42", threadId: "" }, `conv-${id}`);
    store.enqueue(id, "42", null, [{ text: "hi" }], 1_000);
  }

  store.delete("a");
  expect(store.get("a")).toBeNull();
  expect(count(db, "channel_chats", "a")).toBe(0);
  expect(count(db, "channel_outbox", "a")).toBe(0);
  expect(count(db, "channel_chats", "b")).toBe(1);
  expect(count(db, "channel_outbox", "b")).toBe(1);
  expect(chats.getConversation("conv-a")?.channel?.channelId).toBe("a");

  expect(chats.unbindChannel("a").sort()).toEqual(["conv-a", "conv-free"]);
  expect(chats.getConversation("conv-a")?.channel).toBeNull();
  expect(chats.getConversation("conv-free")?.channel).toBeNull();
  expect(chats.getConversation("conv-b")?.channel).toEqual({ channel: "telegram", chatId: "42", channelId: "b" });
  expect(store.countBoundConversations("a")).toBe(0);

  chats.setChannelBinding("conv-b", null);
  expect(chats.getConversation("conv-b")?.channel).toBeNull();
  expect(store.countBoundConversations("b")).toBe(0);
});

test("moving the owner's chat drops every other chat's outbox and state and carries the active conversation (issue 21, W2)", () => {
  const { store, chats } = setup();
  store.insert(channel("a"));
  store.insert(channel("b"));
  const bound = (id: string, channelId: string, chatId: string) => {
    chats.insertConversation({ id, agentKey: "claude", title: id, titleSetByOwner: false, agentConfig: {}, channel: null, now: 1_000 });
    chats.setChannelBinding(id, { channel: "telegram", chatId, channelId });
  };
  bound("old-1", "a", "42");
  bound("old-2", "a", "41");
  bound("new-1", "a", "43");
  bound("other-bot", "b", "42");
  expect(store.boundElsewhere("a", "43").sort()).toEqual(["old-1", "old-2"]);

  store.setActiveConversation({ channelId: "a", chatId: "42", threadId: "" }, "old-1");
  store.setActiveConversation({ channelId: "a", chatId: "43", threadId: "" }, "new-1");
  store.setActiveConversation({ channelId: "b", chatId: "42", threadId: "" }, "other-bot");
  store.enqueue("a", "42", null, [{ text: "one" }, { text: "two" }], 1_000);
  store.enqueue("a", "41", null, [{ text: "three" }], 1_000);
  store.enqueue("a", "43", null, [{ text: "kept" }], 1_000);
  store.enqueue("b", "42", null, [{ text: "other bot" }], 1_000);

  expect(store.moveOwnerChat("a", "42", "43")).toBe(3);
  expect(store.outbox("a", 10).map((r) => [r.chatId, r.message.text])).toEqual([["43", "kept"]]);
  expect(store.activeConversation({ channelId: "a", chatId: "43", threadId: "" })).toBe("old-1");
  expect(store.activeConversation({ channelId: "a", chatId: "42", threadId: "" })).toBeNull();
  // Another channel's chats and outbox are untouched.
  expect(store.activeConversation({ channelId: "b", chatId: "42", threadId: "" })).toBe("other-bot");
  expect(store.countOutbox("b")).toBe(1);
});

test("a message's inline buttons are queued with it and read back as enqueued", () => {
  const { store } = setup();
  store.insert(channel("a"));
  const buttons = [[{ text: "staging", data: "qa:q1:0" }], [{ text: "prod", data: "qa:q1:1" }]];
  store.enqueue("a", "42", null, [{ text: "❓ Where to?", buttons }, { text: "plain" }], 1);
  expect(store.outbox("a", 10).map((r) => r.message)).toEqual([{ text: "❓ Where to?", buttons }, { text: "plain" }]);
});

test("album parts: kept once per update, listed in update order, dropped by id, gone with their channel", () => {
  const { db, store } = setup();
  const parts = sqliteAlbumPartStore(db);
  store.insert(channel("a"));
  const part = (updateId: number, text: string | null) => ({
    updateId: String(updateId),
    chatId: "7",
    threadId: null,
    chatType: "private" as const,
    sender: { id: "7", name: "Ada" },
    text,
    files: [{ kind: "photo" as const, fileId: `f${updateId}`, name: `photo-${updateId}.jpg`, mediaType: "image/jpeg", size: 12 }],
    mediaGroupId: "g",
  });
  parts.keepAlbumPart("a", part(12, null), 1);
  parts.keepAlbumPart("a", part(11, "caption"), 1);
  parts.keepAlbumPart("a", part(11, "redelivered"), 2);
  expect(parts.albumParts("a")).toEqual([part(11, "caption"), part(12, null)]);
  parts.dropAlbumParts("a", ["11"]);
  expect(parts.albumParts("a").map((p) => p.updateId)).toEqual(["12"]);
  store.delete("a");
  expect(count(db, "channel_album_parts", "a")).toBe(0);
});

import { expect, test } from "vitest";
import type { Db } from "../database.js";
import { tempDatabases } from "../../../../test/support/temp-database.js";
import { openChatStores } from "./sqlite-chat-stores.js";

const freshDatabase = tempDatabases("coffer-chat-stores-");

function setup() {
  const db = freshDatabase();
  return { db, chat: openChatStores(db, (details) => ({ ...details, filtered: true })) };
}

const conversation = (id: string) => ({ id, agentKey: "scripted", title: "Stores", titleSetByOwner: true, agentConfig: {}, channel: null, now: 1_000 });
const count = (db: Db, table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

test("one transaction spans the conversation, message and pending stores and the audit writer: a throw keeps none of their writes", () => {
  const { db, chat } = setup();
  chat.conversations.insertConversation(conversation("c1"));
  expect(() =>
    chat.tx.transaction(() => {
      chat.conversations.renameConversation("c1", "Renamed", true, 2_000);
      chat.messages.insertMessage({ id: "m1", conversationId: "c1", role: "user", content: [{ type: "text", text: "hello" }], status: "complete", modelId: null, clientId: null, now: 2_000 });
      chat.pending.appendPending("c1", { id: "p1", text: "later", clientId: null }, 2_000);
      chat.audit("user", "conversation_created", { conversation_id: "c1" }, 2_000);
      throw new Error("rolled back");
    }),
  ).toThrow("rolled back");
  expect(chat.conversations.getConversation("c1")?.title).toBe("Stores");
  expect(count(db, "messages")).toBe(0);
  expect(chat.pending.countPending("c1")).toBe(0);
  expect(count(db, "audit_log")).toBe(0);

  chat.tx.transaction(() => {
    chat.messages.insertMessage({ id: "m1", conversationId: "c1", role: "user", content: [{ type: "text", text: "hello" }], status: "complete", modelId: null, clientId: null, now: 2_000 });
    chat.pending.appendPending("c1", { id: "p1", text: "later", clientId: null }, 2_000);
    chat.audit("user", "conversation_created", { conversation_id: "c1" }, 2_000);
  });
  expect(chat.messages.getMessage("m1")?.content).toEqual([{ type: "text", text: "hello" }]);
  expect(chat.pending.listPending("c1")).toEqual([{ id: "p1", text: "later", clientId: null }]);
  const row = db.prepare("SELECT actor, action, details FROM audit_log").get() as { actor: string; action: string; details: string };
  expect({ ...row, details: JSON.parse(row.details) }).toEqual({ actor: "user", action: "conversation_created", details: { conversation_id: "c1", filtered: true } });
});

test("a reply the message store settles is found by the conversation store's search (one shared index)", () => {
  const { chat } = setup();
  chat.conversations.insertConversation(conversation("c2"));
  chat.messages.insertMessage({ id: "a1", conversationId: "c2", role: "assistant", content: [], status: "streaming", modelId: null, clientId: null, now: 1_000 });
  // Streaming text is not searchable yet; the final content is.
  expect(chat.conversations.listConversations({ archived: false, q: "quokka", limit: 10 })).toEqual([]);
  chat.messages.finalizeMessage("a1", { content: [{ type: "text", text: "a quokka smiles" }], status: "complete", modelId: null, promptTokens: null, completionTokens: null, stopReason: null, error: null });
  const [hit] = chat.conversations.listConversations({ archived: false, q: "quokka", limit: 10 });
  expect(hit?.id).toBe("c2");
  expect(chat.conversations.searchMatch(hit!, "quokka").message_id).toBe("a1");
});

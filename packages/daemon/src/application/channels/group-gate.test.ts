import { describe, expect, test } from "vitest";
import type { ChannelGroup, ChannelGroupStore } from "./group-ports.js";
import { CROWDED_TEXT, GroupGate, MEMBER_RECHECK_MS } from "./group-gate.js";
import { PlatformFailure, type BotConnection, type ChannelRecord, type InboundUpdate } from "./ports.js";

const OWNER = { id: "7", name: "Ada" };
const channel = { id: "ch", owner: { chatId: "7", userId: "7", name: "Ada", pairedAt: 0 } } as ChannelRecord;

function rig(members: number) {
  let now = 1_000;
  const counted: string[] = [];
  const said: string[] = [];
  const rows = new Map<string, ChannelGroup>();
  const groups: ChannelGroupStore = {
    group: (_c, chatId) => rows.get(chatId) ?? null,
    saveGroup: (_c, g) => void rows.set(g.chatId, g),
    topicName: () => null,
    setTopicName: () => undefined,
  };
  let failure: Error | null = null;
  const connection = {
    memberCount: async (chatId: string) => {
      counted.push(chatId);
      const f = failure;
      failure = null;
      if (f) throw f;
      return members;
    },
  } as unknown as BotConnection;
  const gate = new GroupGate({ groups, clock: { now: () => now }, connection: () => connection, say: (_chat, text) => void said.push(text) });
  return {
    gate,
    counted,
    said,
    setMembers: (n: number) => (members = n),
    failNext: (err: Error) => (failure = err),
    advance: (ms: number) => (now += ms),
  };
}

function update(sender: { id: string; name: string } | null, extra: Partial<InboundUpdate> = {}): InboundUpdate {
  return { updateId: "1", chatId: "-100", threadId: "5", chatType: "group", sender, text: "hi", isForum: true, ...extra };
}

describe("GroupGate", () => {
  test("a stranger speaking in a served group makes the owner's next message count again, without a count of its own", async () => {
    const r = rig(2);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("owner");
    r.setMembers(3);
    expect(await r.gate.admit(channel, update({ id: "666", name: "Eve" }))).toBe("stranger");
    expect(await r.gate.admit(channel, update({ id: "666", name: "Eve" }))).toBe("stranger");
    expect(r.counted).toHaveLength(1);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("quiet");
    expect(r.counted).toHaveLength(2);
    expect(r.said.filter((s) => s === CROWDED_TEXT)).toHaveLength(1);
  });

  test("the member count is trusted for a while, then counted again; a join is counted at once", async () => {
    const r = rig(2);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("owner");
    expect(await r.gate.admit(channel, update(OWNER))).toBe("owner");
    expect(r.counted).toHaveLength(1);
    r.setMembers(3);
    r.advance(MEMBER_RECHECK_MS);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("quiet");
    expect(r.counted).toHaveLength(2);
    expect(r.said.filter((s) => s === CROWDED_TEXT)).toHaveLength(1);
    // Said once: the owner's next message in the refused group gets nothing more.
    r.advance(MEMBER_RECHECK_MS);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("quiet");
    expect(r.said.filter((s) => s === CROWDED_TEXT)).toHaveLength(1);
    // The third one leaves: counted at once, served again.
    r.setMembers(2);
    expect(await r.gate.admit(channel, update({ id: "9", name: "Eve" }, { text: null, membersChanged: true }))).toBe("quiet");
    expect(await r.gate.admit(channel, update(OWNER))).toBe("owner");
  });

  test("a stranger's message is counted as a stranger's and never makes the bot call the platform", async () => {
    const r = rig(2);
    expect(await r.gate.admit(channel, update({ id: "9", name: "Eve" }))).toBe("stranger");
    expect(r.counted).toEqual([]);
    expect(r.said).toEqual([]);
  });

  test("a recount that fails for a passing fault keeps the last count: the owner's message still goes", async () => {
    const r = rig(2);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("owner");
    r.failNext(new PlatformFailure("unreachable", "Telegram is down"));
    r.advance(MEMBER_RECHECK_MS);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("owner");
    // Removed from the group: the count is refused for good, and nothing is served there.
    r.failNext(new PlatformFailure("rejected", "Bad Request: chat not found"));
    r.advance(MEMBER_RECHECK_MS);
    expect(await r.gate.admit(channel, update(OWNER))).toBe("quiet");
  });

  test("a group without Topics is not served even with just the two of them", async () => {
    const r = rig(2);
    expect(await r.gate.admit(channel, update(OWNER, { isForum: false, threadId: null }))).toBe("quiet");
    expect(r.said[0]).toMatch(/^Turn on Topics/);
  });
});

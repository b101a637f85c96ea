import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

/** One finished turn: the scripted agent echoes the text back. */
async function say(id: string, text: string): Promise<void> {
  const sub = await t.subscribe(id);
  await t.api.post(`/chat/conversations/${id}/messages`, { text });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
}

const marked = (m: { snippet: string; highlights: [number, number][] }) => m.highlights.map(([s, e]) => m.snippet.slice(s, e));

describe("search results over HTTP", () => {
  acceptance("016-speed-footprint", "search results carry where they matched: the message, a snippet and the matched words' offsets", async () => {
    const inText = await t.conversation();
    await t.api.patch(`/chat/conversations/${inText}`, { title: "Zoo logistics" });
    await say(inText, "an early note about lunch");
    await say(inText, "Where do the Flamingos sleep when it rains?");
    const inTitle = await t.conversation();
    await t.api.patch(`/chat/conversations/${inTitle}`, { title: "Flamingo budget" });
    await say(inTitle, "nothing about birds here");

    const res = await t.api.get("/chat/conversations?q=flamingo");
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.conversations.map((c: any) => [c.id, c]));
    expect(Object.keys(byId).sort()).toEqual([inText, inTitle].sort());

    const messages = (await t.api.get(`/chat/conversations/${inText}/messages`)).body.messages;
    // The newest message holding the word: the scripted agent's echo of the second message.
    const newest = [...messages].reverse().find((m: any) => m.content.some((b: any) => b.type === "text" && /flamingos/i.test(b.text)));
    expect(byId[inText].match.message_id).toBe(newest.id);
    expect(byId[inText].match.snippet).toContain("Where do the Flamingos sleep");
    expect(marked(byId[inText].match)).toEqual(["Flamingos"]);

    // Only the title matched: no message, the title is the snippet.
    expect(byId[inTitle].match).toEqual({ message_id: null, snippet: "Flamingo budget", highlights: [[0, 8]] });

    // Two words: both marked where they are in the snippet.
    const two = (await t.api.get("/chat/conversations?q=flamingos%20rains")).body.conversations;
    expect(two.map((c: any) => c.id)).toEqual([inText]);
    expect(marked(two[0].match)).toEqual(["Flamingos", "rains"]);

    // A plain list carries no match at all.
    expect((await t.api.get("/chat/conversations")).body.conversations.every((c: any) => c.match === undefined)).toBe(true);
  });
});

/**
 * Codex threads stay flat (issue 16): idle threads are unloaded from the shared app-server
 * (they slow every turn start there) and a released thread resumes on its next turn with
 * its history. Real `codex app-server` against the fake Responses server; Codex itself
 * (`thread/loaded/list`) says which threads are loaded.
 */
import { afterEach, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startAgentHarness, textOf, type AgentHarness } from "../fakes/agent-harness.js";
import { conversationTexts } from "../fakes/fake-openai-responses.js";

const SPEC = "016-speed-footprint";
let h: AgentHarness<"codex"> | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function turn(harness: AgentHarness<"codex">, id: string, text: string): Promise<void> {
  const sub = await harness.daemon.subscribe(id);
  await harness.send(id, text);
  const end = await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error");
  sub.close();
  expect(end.event.type).toBe("turn_done");
}

/** Resolves with the thread id once the conversation's thread has been unloaded. */
function released(harness: AgentHarness<"codex">, conversationId: string): Promise<string> {
  return new Promise((resolve) => {
    const stop = harness.provider.onThreadReleased((id, threadId) => {
      if (id !== conversationId) return;
      stop();
      resolve(threadId);
    });
  });
}

acceptance(
  SPEC,
  "codex unloads the least recently used idle thread beyond the cap; it resumes with its history on its next turn",
  async () => {
    h = await startAgentHarness("codex", { env: { COFFER_CODEX_LOADED_THREADS: "1" } });
    const a = await h.conversation();
    const b = await h.conversation();
    await turn(h, a, "alpha one");
    const threadA = h.storedAgentConfig(a).session_id as string;
    expect(await h.provider.loadedThreads()).toEqual([threadA]);

    // B's turn leaves two idle threads against a cap of one: A, used least recently, goes.
    const aReleased = released(h, a);
    await turn(h, b, "bravo one");
    expect(await aReleased).toBe(threadA);
    const threadB = h.storedAgentConfig(b).session_id as string;
    expect(await h.provider.loadedThreads()).toEqual([threadB]);

    // A's next turn resumes the same thread: the model sees its earlier exchange, the stored id is unchanged.
    const bReleased = released(h, b);
    await turn(h, a, "alpha two");
    const request = await h.fake.waitForRequest((r) => r.userText === "alpha two");
    expect(conversationTexts(request)).toEqual(["alpha one", "Echo: alpha one", "alpha two"]);
    expect(h.storedAgentConfig(a).session_id).toBe(threadA);
    expect(textOf((await h.messages(a)).at(-1))).toBe("Echo: alpha two");
    expect(await bReleased).toBe(threadB);
    expect(await h.provider.loadedThreads()).toEqual([threadA]);
  },
  60_000,
);

acceptance(
  SPEC,
  "codex never unloads a thread while its turn runs",
  async () => {
    h = await startAgentHarness("codex", { env: { COFFER_CODEX_LOADED_THREADS: "0" } });
    const a = await h.conversation();
    const b = await h.conversation();
    await turn(h, a, "alpha one");
    const threadA = h.storedAgentConfig(a).session_id as string;
    // Cap 0: every idle thread goes at once; A held open by a gated reply must stay.
    const subA = await h.daemon.subscribe(a);
    await h.send(a, "GATE hold");
    await subA.waitFor((e) => e.type === "text_delta");
    const bReleased = released(h, b);
    await turn(h, b, "bravo one");
    expect(await bReleased).toBe(h.storedAgentConfig(b).session_id);
    expect(await h.provider.loadedThreads()).toEqual([threadA]);
    const aReleased = released(h, a);
    h.fake.open("hold");
    const done = await subA.waitFor((e) => e.type === "turn_done" || e.type === "turn_error");
    subA.close();
    expect(done.event.type).toBe("turn_done");
    expect(await aReleased).toBe(threadA);
    expect(await h.provider.loadedThreads()).toEqual([]);
  },
  60_000,
);

acceptance(
  SPEC,
  "codex unloads a thread idle past COFFER_CODEX_IDLE_SECONDS",
  async () => {
    h = await startAgentHarness("codex", { env: { COFFER_CODEX_IDLE_SECONDS: "0" } });
    const a = await h.conversation();
    const aReleased = released(h, a);
    await turn(h, a, "alpha one");
    expect(await aReleased).toBe(h.storedAgentConfig(a).session_id);
    expect(await h.provider.loadedThreads()).toEqual([]);
    await turn(h, a, "alpha two");
    expect(conversationTexts(await h.fake.waitForRequest((r) => r.userText === "alpha two"))).toEqual(["alpha one", "Echo: alpha one", "alpha two"]);
  },
  60_000,
);

acceptance(
  SPEC,
  "codex unloads a deleted conversation's thread",
  async () => {
    h = await startAgentHarness("codex");
    const a = await h.conversation();
    const b = await h.conversation();
    await turn(h, a, "alpha one");
    await turn(h, b, "bravo one");
    const threadB = h.storedAgentConfig(b).session_id as string;
    const aReleased = released(h, a);
    expect((await h.daemon.api.delete(`/chat/conversations/${a}`)).status).toBe(204);
    await aReleased;
    expect(await h.provider.loadedThreads()).toEqual([threadB]);
  },
  60_000,
);

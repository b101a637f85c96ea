/**
 * Issue 22 B: the phone sees that a queued message is being edited on the page. A real daemon,
 * the fake Bot API and a page session (the hold's `by` is what the daemon verified: web).
 */
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";

const SCENARIO = "while any surface edits a queued message the queue stops in front of it, saving keeps its place, and the hold lapses when the editor goes away";
let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

describe("an edited queued message, seen from the phone", () => {
  acceptance("022-screens-true", SCENARIO, async () => {
    rig = await startChannelRig();
    const { t } = rig;
    const first = rig.say(script({ text: "working" }, { gate: "phone-edit" }));
    await rig.handled(first);
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
    const sub = await t.subscribe(conv.id);
    await sub.waitFor((e) => e.type === "text_delta");
    const x = (await t.api.post(`/chat/conversations/${conv.id}/messages`, { text: "deploy prod to every region now" })).body.pending_id;
    await t.api.post(`/chat/conversations/${conv.id}/messages`, { text: "then tell me" });

    // The page (a session) takes the hold.
    const session = (await (await fetch(`${t.daemon.url}/api/v1/auth/session`, { method: "POST", headers: { authorization: `Bearer ${t.daemon.token}` } })).json()) as { session_id: string; secret: string };
    const held = await fetch(`${t.daemon.url}/api/v1/chat/conversations/${conv.id}/pending/${x}/hold`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.session_id}.${session.secret}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(held.status).toBe(200);
    expect((await t.api.get(`/chat/conversations/${conv.id}/pending`)).body.pending[0].editing).toMatchObject({ by: "web" });

    rig.say("/status");
    const status = await rig.botSays((m) => m.text.startsWith("📋"));
    expect(status.text).toContain("Queue: 2 waiting");
    expect(status.text).toContain("1. “deploy prod to every region now” is being edited on the web page — the queue waits for it");
    expect(status.text).not.toContain("then tell me");
    t.scripted.gates.open("phone-edit");
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
  });
});

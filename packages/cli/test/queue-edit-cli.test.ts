import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const coffer = (args: string[]) => cofferAgainst(t, args);

describe("coffer chat queue: a message being edited (issue 22 B)", () => {
  test("the listing says which message the page is editing; --send-now on it is refused naming the editor", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "busy" }, { gate: "cli-edit" }) });
    await sub.waitFor((e) => e.type === "text_delta");
    const x = (await t.api.post(`/chat/conversations/${id}/messages`, { text: "deploy prod" })).body.pending_id;
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "then report" });
    // The page's session takes the hold.
    const session = (await (await fetch(`${t.daemon.url}/api/v1/auth/session`, { method: "POST", headers: { authorization: `Bearer ${t.daemon.token}` } })).json()) as { session_id: string; secret: string };
    const held = await fetch(`${t.daemon.url}/api/v1/chat/conversations/${id}/pending/${x}/hold`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.session_id}.${session.secret}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(held.status).toBe(200);

    const listed = await coffer(["chat", "queue", id]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe("2 pending\n  1. deploy prod  [being edited on the web page — the queue waits for it]\n  2. then report\n");
    const json = JSON.parse((await coffer(["chat", "queue", id, "--json"])).stdout);
    expect(json.pending[0].editing).toMatchObject({ by: "web" });

    const refused = await coffer(["chat", "queue", id, "--send-now", "1"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("being edited on the web page");
    t.scripted.gates.open("cli-edit");
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
  });
});

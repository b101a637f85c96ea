/**
 * When the agent cannot say which models it has, the suggestions degrade to the models
 * recently used with it, and the answer says why — never an error, never another agent's.
 */
import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  // A `claude` that is on PATH but exits at once (a broken install): it cannot answer.
  const bin = await mkdtemp(join(tmpdir(), "coffer-bin-"));
  await writeFile(join(bin, "claude"), "#!/bin/sh\nexit 3\n");
  await chmod(join(bin, "claude"), 0o755);
  t = await startTestDaemon({ env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` } });
});
afterAll(() => t.close());

describe("model suggestions when the agent cannot answer", () => {
  acceptance("015-page-basics", "an agent that cannot list its models leaves recent models only, with the reason", async () => {
    const broken = await t.api.get("/chat/agents/claude_code/models");
    expect(broken.status).toBe(200);
    expect(broken.body).toMatchObject({ agent_key: "claude_code", from_agent: false, models: [] });
    expect(broken.body.reason).toMatch(/^Claude Code did not list its models: /);

    // The scripted agent has no list of its own: the models its replies ran on are the suggestions.
    const conv = await t.api.post("/chat/conversations", { agent_key: "scripted" });
    const sub = await t.subscribe(conv.body.id);
    await t.api.post(`/chat/conversations/${conv.body.id}/messages`, { text: "hi" });
    await sub.waitFor((e) => isTerminalEvent(e));
    sub.close();
    const scripted = await t.api.get("/chat/agents/scripted/models");
    expect(scripted.body).toMatchObject({ from_agent: false, reason: "Scripted (tests) cannot list its models" });
    expect(scripted.body.models).toEqual([{ id: "scripted-1", label: null, description: null, source: "recent" }]);
    // …and they are not offered for another agent.
    expect((await t.api.get("/chat/agents/claude_code/models")).body.models).toEqual([]);
  });
});

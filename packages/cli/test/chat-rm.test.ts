/**
 * Issue 21 (CLI notes): `coffer chat rm` with a one-character prefix deleted whatever matched,
 * without asking. Now it refuses a prefix under 4 characters, asks on a terminal (showing the
 * title and how many messages go), and without a terminal needs --yes.
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst, cofferOnTerminal } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const coffer = (args: string[]) => cofferAgainst(t, args);
const exists = async (id: string) => (await t.api.get(`/chat/conversations/${id}`)).status === 200;

/** A conversation with a title and one finished turn (2 messages). */
async function conversation(title: string): Promise<string> {
  const id = (await t.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
  const sub = await t.subscribe(id);
  await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "hi" }) });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  return id;
}

describe("coffer chat rm", { timeout: 90_000 }, () => {
  acceptance("021-hardening", "chat rm asks before deleting and refuses a prefix shorter than 4 characters", async () => {
    const id = await conversation("Quarterly plan");

    // Too short to delete by, even when it is unique: nothing is asked or sent.
    for (const prefix of [id.slice(0, 1), id.slice(0, 3)]) {
      const short = await coffer(["chat", "rm", prefix, "--yes"]);
      expect(short.code).toBe(4);
      expect(short.stderr).toContain(`"${prefix}" is too short to delete by: give at least 4 characters`);
    }
    // No terminal to ask on: --yes is required.
    const unasked = await coffer(["chat", "rm", id]);
    expect(unasked.code).toBe(4);
    expect(unasked.stderr).toContain("add --yes to confirm");
    expect(await exists(id)).toBe(true);

    // On a terminal it asks, naming what would go; Enter or "n" keeps it.
    for (const keys of ["n\n", "\n"]) {
      const kept = await cofferOnTerminal(t, ["chat", "rm", id.slice(0, 4)], keys);
      expect(kept.stdout).toContain("Delete conversation “Quarterly plan” (2 messages)? [y/N]");
      expect(kept.stdout).toContain("not deleted [CANCELLED]");
      expect(kept.code).toBe(1);
      expect(await exists(id)).toBe(true);
    }
    const yes = await cofferOnTerminal(t, ["chat", "rm", id.slice(0, 4)], "y\n");
    expect(yes.stdout).toContain("deleted");
    expect(yes.code).toBe(0);
    expect(await exists(id)).toBe(false);

    // A script says --yes.
    const other = await conversation("Scripted away");
    const scripted = await coffer(["chat", "rm", other, "--yes"]);
    expect(scripted).toMatchObject({ code: 0, stdout: "deleted\n" });
    expect(await exists(other)).toBe(false);
  });
});

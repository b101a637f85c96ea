import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeAnthropicLlm } from "../../daemon/test/fakes/llm-fake-anthropic.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const coffer = (args: string[], stdin = "") => cofferAgainst(t, args, stdin);

describe("coffer cred and coffer settings", { timeout: 60_000 }, () => {
  test("cred set reads the secret from stdin (never argv); ls shows refs only; rm removes", async () => {
    const fake = await FakeAnthropicLlm.start({ apiKey: "piped-secret-123", models: ["m1"] });
    const set = await coffer(["cred", "set", "anthropic-cli"], "piped-secret-123\n");
    expect(set).toMatchObject({ code: 0, stdout: "stored anthropic-cli\n" });
    // The daemon got exactly the piped value (trailing newline dropped): the provider accepts it.
    const listed = await t.api.post("/models/list-models", { wire: "anthropic", base_url: fake.baseUrl, credential_ref: "anthropic-cli" });
    expect(listed.body.models).toEqual(["m1"]);
    await fake.close();

    const ls = await coffer(["cred", "ls", "--json"]);
    expect(JSON.parse(ls.stdout).credentials).toEqual([{ ref: "anthropic-cli", created_at: expect.any(String), updated_at: expect.any(String) }]);
    expect(ls.stdout).not.toContain("piped-secret-123");
    expect((await coffer(["cred", "ls"])).stdout).toMatch(/^anthropic-cli\s+updated /);
    expect(await coffer(["cred", "set", "empty"], "")).toMatchObject({ code: 4 });
    expect(await coffer(["cred", "rm", "anthropic-cli"])).toMatchObject({ code: 0, stdout: "removed anthropic-cli\n" });
    expect((await coffer(["cred", "rm", "anthropic-cli"])).code).toBe(3);
  });

  test("settings retention shows and changes both windows; never = keep forever", async () => {
    expect((await coffer(["settings", "retention"])).stdout).toBe(
      "auto-archive: idle conversations archived after 7 days\nauto-delete:  archived conversations deleted after 30 days\n",
    );
    const changed = await coffer(["settings", "retention", "--archive-after", "never", "--delete-after", "45", "--json"]);
    expect(JSON.parse(changed.stdout)).toEqual({ archive_after_days: null, delete_after_days: 45 });
    expect((await coffer(["settings", "retention"])).stdout).toContain("auto-archive: never (keep forever)");
    expect(await coffer(["settings", "retention", "--delete-after", "0"])).toMatchObject({ code: 4 });
    expect((await t.api.get("/settings/retention")).body).toEqual({ archive_after_days: null, delete_after_days: 45 });
  });
});

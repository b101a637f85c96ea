import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

/** The REST scrubber (http/middleware/scrub-responses.ts) rewrites a body; the answer must stay the same answer. */
let t: TestDaemon;
const secret = "sk-scrub-me-0123456789";
beforeAll(async () => {
  t = await startTestDaemon();
  expect((await t.api.put("/credentials/leak.test", { secret })).status).toBeLessThan(300);
});
afterAll(() => t.close());

test("a created resource that quotes a credential is scrubbed and is still a 201", async () => {
  const res = await t.api.post("/chat/conversations", { agent_key: "scripted", title: `notes ${secret}` });
  expect(res.status).toBe(201);
  expect(res.body.title).toBe("notes [credential:leak.test]");
});

test("an error answer that quotes a credential is scrubbed and keeps its status and envelope", async () => {
  // The id is echoed in the 404's message and details.
  const res = await t.api.get(`/chat/conversations/${secret}`);
  expect(res.status).toBe(404);
  expect(res.body.error.code).toBe("CONVERSATION_NOT_FOUND");
  expect(JSON.stringify(res.body)).not.toContain(secret);
  expect(res.body.error.message).toContain("[credential:leak.test]");
});

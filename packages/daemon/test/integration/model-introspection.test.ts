import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeAnthropicLlm } from "../fakes/llm-fake-anthropic.js";
import { FakeOllamaLlm } from "../fakes/llm-fake-ollama.js";
import { FakeOpenAiLlm } from "../fakes/llm-fake-openai.js";
import { refusedOrigin, type FakeLlmOptions, type FakeLlmServer } from "../fakes/llm-fake-server.js";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

type Fake = FakeLlmServer & { readonly baseUrl: string };
interface WireCase {
  readonly wire: "anthropic" | "openai" | "ollama";
  readonly start: (o: FakeLlmOptions) => Promise<Fake>;
  /** The key the fake wants; Ollama needs none unless it sits behind a proxy. */
  readonly key: string | null;
  /** Where the wire's base URL sits on an origin (refused / empty-list cases). */
  readonly base: (origin: string) => string;
}

const CASES: WireCase[] = [
  { wire: "anthropic", start: FakeAnthropicLlm.start, key: "sk-ant-fake", base: (o) => o },
  { wire: "openai", start: FakeOpenAiLlm.start, key: "sk-openai-fake", base: (o) => `${o}/v1` },
  { wire: "ollama", start: FakeOllamaLlm.start, key: null, base: (o) => o },
];
const MODELS = ["model-b", "model-a"];

let t: TestDaemon;
const fakes: Fake[] = [];
async function fake(c: WireCase, options: FakeLlmOptions = {}): Promise<Fake> {
  const f = await c.start({ models: MODELS, ...options });
  fakes.push(f);
  return f;
}

beforeAll(async () => {
  // A short provider timeout so the timeout case is quick; every other case answers at once.
  t = await startTestDaemon({ llmTimeoutMs: 700 });
  for (const c of CASES) if (c.key) expect((await t.api.put(`/credentials/${c.wire}-key`, { secret: c.key })).status).toBe(200);
  expect((await t.api.put("/credentials/bad-key", { secret: "definitely-wrong" })).status).toBe(200);
});
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await t.close();
});

const goodRef = (c: WireCase) => (c.key ? `${c.wire}-key` : null);
const listModels = (body: Record<string, unknown>) => t.api.post("/models/list-models", body);
const testConnection = (body: Record<string, unknown>) => t.api.post("/models/test-connection", body);

describe.each(CASES)("model introspection on the $wire wire", (c) => {
  test("ok: lists the provider's model ids and a minimal request succeeds", { timeout: 15_000 }, async () => {
    const f = await fake(c);
    const list = await listModels({ wire: c.wire, base_url: f.baseUrl, credential_ref: goodRef(c) });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ models: ["model-a", "model-b"], message: "2 models listed" });

    const ok = await testConnection({ wire: c.wire, model: "model-a", base_url: f.baseUrl, credential_ref: goodRef(c) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, message: "connection ok", detail: { wire: c.wire, model: "model-a", base_url: f.baseUrl } });
    expect(f.chats.map((x) => x.model)).toEqual(["model-a"]);
  });

  test("bad key: a humanised 401, nothing listed, ok:false", { timeout: 15_000 }, async () => {
    // Ollama has no key of its own: this one sits behind a proxy that wants a bearer token.
    const f = await fake(c, { apiKey: c.key ?? "proxy-token" });
    const list = await listModels({ provider: c.wire, base_url: f.baseUrl, credential_ref: "bad-key" });
    expect(list.status).toBe(200);
    expect(list.body.models).toEqual([]);
    expect(list.body.message).toMatch(/rejected the credential "bad-key" \(HTTP 401\): check the key stored under that name \(Settings → Credentials\)\./);

    const res = await testConnection({ wire: c.wire, model: "model-a", base_url: f.baseUrl, credential_ref: "bad-key" });
    expect(res.body).toMatchObject({ ok: false, detail: { kind: "auth", status: 401 } });
    expect(res.body.message).toMatch(/rejected the credential "bad-key"/);
    expect(JSON.stringify([list.body, res.body])).not.toContain("definitely-wrong");
  });

  test("refused: nothing listening at the base URL", { timeout: 15_000 }, async () => {
    const base = c.base(await refusedOrigin());
    const list = await listModels({ wire: c.wire, base_url: base, credential_ref: goodRef(c) });
    expect(list.body.models).toEqual([]);
    expect(list.body.message).toBe(`Nothing is listening at ${base} (connection refused): is ${display(c)} running, and is the base URL right?`);
    const res = await testConnection({ wire: c.wire, model: "model-a", base_url: base, credential_ref: goodRef(c) });
    expect(res.body).toMatchObject({ ok: false, message: list.body.message, detail: { kind: "refused" } });
  });

  test("empty list: [] and a message so the owner types a model id", { timeout: 15_000 }, async () => {
    const f = await fake(c, { models: [] });
    const list = await listModels({ wire: c.wire, base_url: f.baseUrl, credential_ref: goodRef(c) });
    expect(list.body).toEqual({ models: [], message: "no models returned; enter a model id manually" });
  });

  test("not found: an unknown model id is named in the failure", { timeout: 15_000 }, async () => {
    const f = await fake(c);
    const res = await testConnection({ wire: c.wire, model: "no-such-model", base_url: f.baseUrl, credential_ref: goodRef(c) });
    expect(res.body).toMatchObject({ ok: false, detail: { kind: "not_found", status: 404 } });
    expect(res.body.message).toMatch(/^The model "no-such-model" was not found at .+ \(HTTP 404\): check the model id/);
  });

  test("timeout: a provider that never answers", { timeout: 15_000 }, async () => {
    const f = await fake(c, { stall: true });
    const res = await testConnection({ wire: c.wire, model: "model-a", base_url: f.baseUrl, credential_ref: goodRef(c) });
    expect(res.body).toMatchObject({ ok: false, detail: { kind: "timeout" } });
    expect(res.body.message).toBe(`${display(c)} did not answer within 0.7 s at ${f.baseUrl}: check the base URL and your network.`);
  });
});

describe("model introspection without what it needs", () => {
  test("a missing credential, a cloud wire without one, an unknown wire: humanised, never an error status", async () => {
    const missing = await listModels({ wire: "anthropic", credential_ref: "never-set" });
    expect(missing.body).toEqual({
      models: [],
      message: 'No credential is stored as "never-set": add it under Settings → Credentials.',
    });
    const none = await testConnection({ wire: "openai", model: "m" });
    expect(none.body).toMatchObject({ ok: false, message: "The openai provider needs a credential: choose a credential ref.", detail: { kind: "credential_missing" } });
    const unknown = await listModels({ wire: "gemini" });
    expect(unknown.body).toEqual({ models: [], message: 'Unknown provider "gemini"; this daemon speaks: anthropic, openai, ollama.' });
    expect((await listModels({ base_url: "http://127.0.0.1:1" })).status).toBe(422);
  });
});

function display(c: WireCase): string {
  return { anthropic: "Anthropic", openai: "OpenAI", ollama: "Ollama" }[c.wire];
}

acceptance("008-agent-chat", "list a provider's models", async () => {
  const f = await fake(CASES[0]!, { models: ["claude-x-1", "claude-x-2"] });
  const before = await t.api.get("/connections");
  const listed = await listModels({ provider: "anthropic", base_url: f.baseUrl, credential_ref: "anthropic-key" });
  expect(listed.body).toEqual({ models: ["claude-x-1", "claude-x-2"], message: "2 models listed" });
  // None can be listed: an empty list with a message, so the owner can still type an id.
  const empty = await fake(CASES[2]!, { models: [] });
  expect((await listModels({ provider: "ollama", base_url: empty.baseUrl })).body).toEqual({
    models: [],
    message: "no models returned; enter a model id manually",
  });
  expect((await t.api.get("/connections")).body).toEqual(before.body);
}, 15_000);

acceptance("008-agent-chat", "test a model connection", async () => {
  const f = await fake(CASES[1]!);
  const ok = await testConnection({ provider: "openai", model: "model-a", base_url: f.baseUrl, credential_ref: "openai-key" });
  expect(ok.body).toMatchObject({ ok: true, message: "connection ok" });
  // A minimal request reached the provider: one completion for the named model.
  expect(f.chats).toHaveLength(1);
  const failed = await testConnection({ provider: "openai", model: "model-a", base_url: f.baseUrl, credential_ref: "bad-key" });
  expect(failed.status).toBe(200);
  expect(failed.body).toMatchObject({ ok: false, detail: { kind: "auth", status: 401 } });
  expect(failed.body.message).toContain('OpenAI rejected the credential "bad-key" (HTTP 401)');
  // Nothing persisted: no connection appeared, the credentials are the ones we set.
  expect((await t.api.get("/connections")).body).toEqual({ connections: [] });
  expect((await t.api.get("/credentials")).body.credentials.map((x: any) => x.ref)).toEqual(["anthropic-key", "bad-key", "openai-key"]);
}, 15_000);

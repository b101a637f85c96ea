import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { BUDGET, mainChunks, measure, problems } from "./check-bundle.mjs";

const dirs = [];
/** A dist/ like Vite's: index.html naming the entry, chunks (with their source maps) under assets/. */
function dist(chunks) {
  const root = mkdtempSync(join(tmpdir(), "bundle-"));
  dirs.push(root);
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), `<script type="module" crossorigin src="/assets/index-a1.js"></script>`);
  for (const [name, chunk] of Object.entries(chunks)) {
    const { code, sources = [] } = typeof chunk === "string" ? { code: chunk } : chunk;
    writeFileSync(join(root, "assets", name), code);
    writeFileSync(join(root, "assets", `${name}.map`), JSON.stringify({ version: 3, sources, mappings: "" }));
  }
  return root;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("the main load is the entry and what it imports statically; a lazy route's import() is not followed", () => {
  const root = dist({
    "index-a1.js": `import{a as e}from"./shared-b2.js";import"./runtime-c3.js";const V=()=>import("./vault-routes-d4.js");`,
    "shared-b2.js": `export*from"./deep-e5.js";export const a=1;`,
    "runtime-c3.js": `export{}`,
    "deep-e5.js": `export const d=1;`,
    "vault-routes-d4.js": `import{a}from"./shared-b2.js";`,
  });
  expect(mainChunks(root).sort()).toEqual(["deep-e5.js", "index-a1.js", "runtime-c3.js", "shared-b2.js"]);
});

test("over the budget, raw or gzip, fails with the figure and the budget", () => {
  const root = dist({ "index-a1.js": { code: `/*${"x".repeat(5000)}*/` } });
  const m = measure(root);
  expect(m.total.raw).toBe(5004);
  expect(problems(m, { raw: 6000, gzip: 1000 })).toEqual([]);
  expect(problems(m, { raw: 5000, gzip: 1000 })).toEqual(["main load is 5004 bytes raw, over the 5000 budget"]);
  expect(problems(m, { raw: 6000, gzip: 10 })).toEqual([`main load is ${m.total.gzip} bytes gzip, over the 10 budget`]);
});

test("Vault or Settings source in the main load fails even within budget", () => {
  const root = dist({
    "index-a1.js": { code: `import"./shared-b2.js";`, sources: ["../../src/chat/thread/messages.tsx"] },
    "shared-b2.js": { code: `export{}`, sources: ["../../src/vault/knowledge/snippet.tsx", "../../../protocol/src/chat/routes.ts"] },
  });
  expect(problems(measure(root), BUDGET)).toEqual([
    "Vault/Settings code in the main load: shared-b2.js: ../../src/vault/knowledge/snippet.tsx (import it from a lazy route only)",
  ]);
});

test("the protocol's Vault, Settings and channel rooms and the joined ROUTES table fail in the main load; the Chat's room and the retention windows pass", () => {
  const root = dist({
    "index-a1.js": {
      code: `import"./shared-b2.js";`,
      sources: ["../../../protocol/src/chat/routes.ts", "../../../protocol/src/chat/alert-events.ts", "../../../protocol/src/wire/api-client.ts", "../../../protocol/src/settings/retention.ts", "../../../protocol/src/settings/retention-routes.ts"],
    },
    "shared-b2.js": {
      code: `export{}`,
      sources: ["../../../protocol/src/routes.ts", "../../../protocol/src/vault/memory.ts", "../../../protocol/src/settings/credentials.ts", "../../../protocol/src/settings/routes.ts", "../../../protocol/src/channels/routes.ts"],
    },
  });
  expect(problems(measure(root), BUDGET)).toEqual([
    "Vault/Settings code in the main load: shared-b2.js: ../../../protocol/src/routes.ts (import it from a lazy route only)",
    "Vault/Settings code in the main load: shared-b2.js: ../../../protocol/src/vault/memory.ts (import it from a lazy route only)",
    "Vault/Settings code in the main load: shared-b2.js: ../../../protocol/src/settings/credentials.ts (import it from a lazy route only)",
    "Vault/Settings code in the main load: shared-b2.js: ../../../protocol/src/settings/routes.ts (import it from a lazy route only)",
    "Vault/Settings code in the main load: shared-b2.js: ../../../protocol/src/channels/routes.ts (import it from a lazy route only)",
  ]);
});

test("the reply renderer (marked, DOMPurify, markdown.tsx) in the main load fails; its lazy chunk passes", () => {
  const root = dist({
    "index-a1.js": {
      code: `import"./shared-b2.js";const R=()=>import("./markdown-f6.js");`,
      sources: ["../../src/chat/thread/reply-text.tsx", "../../../../node_modules/marked/lib/marked.esm.js"],
    },
    "shared-b2.js": { code: `export{}`, sources: ["../../../../node_modules/dompurify/dist/purify.es.mjs"] },
    "markdown-f6.js": { code: `export{}`, sources: ["../../src/chat/thread/markdown.tsx", "../../../../node_modules/marked/lib/marked.esm.js"] },
  });
  expect(problems(measure(root), BUDGET)).toEqual([
    "reply renderer in the main load: index-a1.js: ../../../../node_modules/marked/lib/marked.esm.js (import Markdown from chat/thread/reply-text.tsx)",
    "reply renderer in the main load: shared-b2.js: ../../../../node_modules/dompurify/dist/purify.es.mjs (import Markdown from chat/thread/reply-text.tsx)",
  ]);
});

#!/usr/bin/env node
// Fails when the page's main load grows past its budget, or when code only Vault or Settings
// use leaks into it. The main load is the entry script of packages/web/dist/index.html plus
// every chunk it imports statically (a lazy route's `import("./…")` is not followed): what the
// browser fetches before the Chat opens. Figures: raw bytes and gzip (zlib's default level,
// as Vite reports it). Budget and measurements: docs/decisions.md, "Vault, Settings and
// retention on the page (issue 15)". Raise the budget only on purpose, saying what grew.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * Bytes. Measured main load at issue 15: 626,611 raw / 196,059 gzip; room for the chat's own growth.
 * Issue 22 grew the Chat's first load on purpose, each part needed before the Chat opens: edit
 * holds on queued messages (B: the hold/renew/release and their schemas), the composer's focus
 * hand-over, the palette's ranking and snippets and the live tool-call cache (C, I, K), answered
 * questions kept in the thread with one-tap answers (E), the steer's shared segments (A).
 * Together 658.6 → 674.0 kB raw, 205.7 → 210.4 kB gzip (budget then 680,000 / 212,000).
 * Issue 23 won room back: the page calls each area through its own route table and the protocol
 * package declares no side effects, so Vault's, Settings' and the channels' schemas load with their
 * screens. Main load 674.9 → 656.6 kB raw, 210.6 → 205.3 kB gzip: the budget is 660,000 / 207,000.
 * Issue 25 put attachments on every message and queued row (their schemas and the upload
 * client load with the Chat): 660.3 kB raw, 206.2 kB gzip, 0.3 kB over (budget briefly 662,000).
 * Then the reply renderer (markdown.tsx with marked and DOMPurify, 83.8 kB raw) moved to its own
 * chunk, fetched as the Chat opens (chat/thread/reply-text.tsx): main load 577.2 kB raw, 178.2 kB
 * gzip. The budget is that plus ~2 %: 590,000 / 182,000; RENDERER_ONLY keeps the renderer out.
 * Issue 26/27 filled that room with what the Chat needs at once — buttons, forum-topic labels,
 * send-later's timed queue rows and the morning brief's list-stream event (their schemas live in
 * the chat room, which loads with the Chat): 588.5 kB raw, 182.1 kB gzip. Gzip budget 183,000
 * (docs/decisions.md, "The first-load budget after issues 26 and 27"); raw unchanged.
 * Then the history lists and the Tool calls log stopped losing a live event that arrived while
 * their fetch was in flight (api/in-flight.ts): 590.1 kB raw. Raw budget 591,000
 * (docs/decisions.md, "A list event during a list fetch"); the thread's loading shape
 * (thread-skeleton.tsx) then took it to 590.7 kB raw, 182.8 kB gzip.
 * Then the page's build stopped carrying the protocol's schema descriptions (API documentation
 * it never reads; web/vite-plugins/strip-descriptions.ts): 590.8 → 581.2 kB raw, 182.9 → 179.4 kB
 * gzip. The budget keeps most of that won: 585,000 / 181,000 (docs/decisions.md, "The page's
 * build drops schema descriptions").
 */
export const BUDGET = { raw: 585_000, gzip: 181_000 };

/**
 * The sources that must stay in their lazy chunks (loaded on first visit to /vault or /settings):
 * the page's own Vault and Settings screens, the protocol's Vault, Settings and channel rooms
 * (their schemas), and the protocol's one ROUTES table, which joins every room (the page calls
 * each area through its own table instead). The retention windows are the one exception: the
 * Chat shows them (first run, an archived conversation's deletion notice), so
 * `settings/retention.ts` and `settings/retention-routes.ts` may load first.
 */
export const LAZY_ONLY = [
  /(^|\/)(?<!protocol\/)src\/vault\//,
  /(^|\/)(?<!protocol\/)src\/settings\//,
  /(^|\/)protocol\/src\/(vault|channels)\//,
  /(^|\/)protocol\/src\/settings\/(?!retention(-routes)?\.ts$)/,
  /(^|\/)protocol\/src\/routes\.ts$/,
];

/**
 * The reply renderer's sources: marked, DOMPurify and the page's markdown.tsx load in their own
 * chunk as the Chat opens (chat/thread/reply-text.tsx), never in the first load.
 */
export const RENDERER_ONLY = [/(^|\/)node_modules\/marked\//, /(^|\/)node_modules\/dompurify\//, /(^|\/)web\/src\/chat\/thread\/markdown\.tsx$/];

// Static imports and re-exports in minified ES modules: `import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`.
const STATIC_IMPORT = /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']\.\/([^"']+\.js)["']/g;

/** The entry chunk and all it imports statically, as file names under assets/. */
export function mainChunks(dist) {
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const entry = /<script[^>]*type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no module entry script in ${join(dist, "index.html")}`);
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const code = readFileSync(join(dist, "assets", name), "utf8");
    for (const m of code.matchAll(STATIC_IMPORT)) visit(m[1]);
  };
  visit(entry);
  return [...seen];
}

/** Raw and gzip bytes of the main load, per chunk and in total, and any lazy-only source found in it. */
export function measure(dist) {
  const chunks = mainChunks(dist).map((name) => {
    const bytes = readFileSync(join(dist, "assets", name));
    return { name, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
  const leaked = [];
  const renderer = [];
  for (const { name } of chunks) {
    const map = join(dist, "assets", `${name}.map`);
    if (!existsSync(map)) continue;
    for (const src of JSON.parse(readFileSync(map, "utf8")).sources ?? []) {
      if (LAZY_ONLY.some((re) => re.test(src))) leaked.push(`${name}: ${src}`);
      if (RENDERER_ONLY.some((re) => re.test(src))) renderer.push(`${name}: ${src}`);
    }
  }
  const total = chunks.reduce((t, c) => ({ raw: t.raw + c.raw, gzip: t.gzip + c.gzip }), { raw: 0, gzip: 0 });
  return { chunks, total, leaked, renderer };
}

/** The failures, in words; empty when the main load is within budget and holds no lazy-only code. */
export function problems({ total, leaked, renderer = [] }, budget = BUDGET) {
  const out = [];
  if (total.raw > budget.raw) out.push(`main load is ${total.raw} bytes raw, over the ${budget.raw} budget`);
  if (total.gzip > budget.gzip) out.push(`main load is ${total.gzip} bytes gzip, over the ${budget.gzip} budget`);
  for (const l of leaked) out.push(`Vault/Settings code in the main load: ${l} (import it from a lazy route only)`);
  for (const r of renderer) out.push(`reply renderer in the main load: ${r} (import Markdown from chat/thread/reply-text.tsx)`);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL("../packages/web/dist/", import.meta.url));
  const m = measure(dist);
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  for (const c of m.chunks) console.log(`  ${c.name.padEnd(40)} ${kb(c.raw).padStart(10)} raw ${kb(c.gzip).padStart(10)} gzip`);
  console.log(`main load: ${kb(m.total.raw)} raw (budget ${kb(BUDGET.raw)}), ${kb(m.total.gzip)} gzip (budget ${kb(BUDGET.gzip)})`);
  const found = problems(m);
  for (const p of found) console.error(`check-bundle: ${p}`);
  process.exit(found.length ? 1 : 0);
}

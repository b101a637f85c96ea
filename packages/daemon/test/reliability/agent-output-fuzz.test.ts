/**
 * Issue 21, W7, the fuzz half: 150 seeded random turns through a real daemon, each a reply that
 * carries a stored credential in one of its encodings (plain, base64, base64url, hex both cases,
 * URL-encoded) once or more, cut into deltas at random points — inside the value too, down to
 * one character at a time — with tool calls in between that carry it in their input and output.
 * The scripted agent says it (`{{F<i>:from:to}}` slices), so the owner's messages never hold it.
 * Every delta a live client receives, the reply it rebuilds, the stored reply and the raw wire
 * must hold `[credential:fuzz]` where the value was and no run of 6 characters of any form.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { script, type Step } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { prng } from "../support/prng.js";

const SEED = 20_261_204;
const TURNS = 150;
const MARK = "[credential:fuzz]";
/** Filler that no encoding of the value can contain (no letters, digits, %, +, /, - or _), emoji and CJK included. */
const FILLER = Array.from(" .,;:!?()\n\t\u00e9\u4e2d\u{1f600}");

const random = prng(SEED);
const int = (n: number) => Math.floor(random() * n);

const SECRET = `zq-fuzz-${Array.from({ length: 32 }, () => "0123456789abcdef"[int(16)]).join("")}`;
const bytes = Buffer.from(SECRET);
const FORMS = [SECRET, bytes.toString("base64"), bytes.toString("base64url"), bytes.toString("hex"), bytes.toString("hex").toUpperCase(), encodeURIComponent(`${SECRET}/?&`)];
// The URL-encoded form of a value with characters that encoding changes: learn that value too.
const URL_SECRET = `${SECRET}/?&`;
const WINDOWS = [...new Set(FORMS.flatMap((f) => Array.from({ length: f.length - 5 }, (_, i) => f.slice(i, i + 6))))];
/**
 * The value's hex form is all hex digits, so a 6-character window of it turns up by chance in
 * the wire's random 32-hex ids and its numbers (SSE ids, seqs, timestamps): a CI run failed on
 * `663434` inside a turn id. Those fields are the daemon's own, never the agent's words, so they
 * are blanked before the scan; every text the agent could put a value into is still scanned.
 */
const withoutOwnIds = (text: string) =>
  text
    .replace(/^id: .*$/gm, "id:")
    .replace(/"(\w*id)":"[0-9a-f]{32}"/g, '"$1":""')
    .replace(/"(\w+)":-?\d+(\.\d+)?/g, '"$1":0');
const leaksIn = (text: string) => {
  const scanned = withoutOwnIds(text);
  return WINDOWS.filter((w) => scanned.includes(w));
};

interface Span {
  readonly start: number;
  readonly end: number;
  readonly form: number;
}

interface FuzzTurn {
  readonly steps: Step[];
  /** What a client must rebuild from the deltas. */
  readonly expected: string;
  readonly tools: number;
}

function filler(max: number): string {
  return Array.from({ length: int(max) }, () => FILLER[int(FILLER.length)]).join("");
}

/** The text S[a, b) as script text: literal filler, `{{F<i>:x:y}}` for the parts inside a value. */
function encode(text: string, spans: readonly Span[], a: number, b: number): string {
  let out = "";
  let at = a;
  for (const s of spans) {
    if (s.end <= at || s.start >= b) continue;
    if (s.start > at) out += text.slice(at, s.start);
    const from = Math.max(at, s.start);
    const to = Math.min(b, s.end);
    out += `{{F${s.form}:${from - s.start}:${to - s.start}}}`;
    at = to;
  }
  return out + text.slice(at, b);
}

function fuzzTurn(n: number): FuzzTurn {
  let text = "";
  let expected = "";
  const spans: Span[] = [];
  const occurrences = 1 + int(3);
  for (let i = 0; i < occurrences; i++) {
    const pad = filler(12);
    text += pad;
    expected += pad;
    const form = int(FORMS.length);
    spans.push({ start: text.length, end: text.length + FORMS[form]!.length, form });
    text += FORMS[form];
    expected += MARK;
  }
  const tail = filler(8);
  text += tail;
  expected += tail;
  // Cut points: random, inside values as often as not; one character at a time for some turns.
  const cuts = new Set<number>();
  if (n % 10 === 0) for (let i = 1; i < text.length; i++) cuts.add(i);
  else for (let i = 0, k = 1 + int(12); i < k; i++) cuts.add(1 + int(text.length - 1));
  const points = [0, ...[...cuts].sort((x, y) => x - y), text.length];
  const steps: Step[] = [];
  let tools = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i]!, points[i + 1]!];
    if (a === b) continue;
    // A tool call may come between deltas, but not inside a value (a model's text block ends first).
    const inside = spans.some((s) => s.start < a && a < s.end);
    if (!inside && a > 0 && random() < 0.15) {
      const f = int(FORMS.length);
      steps.push({ tool: { id: `t${n}-${i}`, name: "Bash", input: { command: `echo {{F${f}}}` }, output: `{{F${f}}}\n` } });
      tools += 1;
    }
    steps.push({ text: encode(text, spans, a, b) });
  }
  return { steps, expected, tools };
}

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
  t.scripted.knows = Object.fromEntries(FORMS.map((f, i) => [`F${i}`, f]));
  expect((await t.api.put("/credentials/fuzz", { secret: SECRET })).status).toBe(200);
  // The URL-encoded form is of a value whose encoding differs from it.
  expect((await t.api.put("/credentials/fuzz-url", { secret: URL_SECRET })).status).toBe(200);
});
afterAll(() => t.close());

test(`${TURNS} seeded turns: a credential split at random across deltas never reaches a client, the stored reply or the wire`, async () => {
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  const failures: string[] = [];
  let deltas = 0;
  let tools = 0;
  for (let n = 0; n < TURNS; n++) {
    const turn = fuzzTurn(n);
    const from = sub.events.length;
    const ack = await t.api.post(`/chat/conversations/${id}/messages`, { text: script(...turn.steps) });
    expect(ack.status).toBe(202);
    await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error", from);
    const events = sub.events.slice(from).map((e) => e.event);
    const texts = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []));
    deltas += texts.length;
    // The URL form belongs to the other credential; either ref is a correct scrub.
    const rebuilt = texts.join("").replaceAll("[credential:fuzz-url]", MARK);
    if (rebuilt !== turn.expected) failures.push(`turn ${n}: rebuilt ${JSON.stringify(rebuilt)} ≠ ${JSON.stringify(turn.expected)}`);
    for (const d of texts) if (leaksIn(d).length) failures.push(`turn ${n}: delta ${JSON.stringify(d)} holds ${leaksIn(d)[0]}`);
    const calls = events.filter((e) => e.type === "tool_call" || e.type === "tool_result");
    tools += calls.length / 2;
    if (calls.length !== turn.tools * 2) failures.push(`turn ${n}: ${calls.length} tool events, expected ${turn.tools * 2}`);
    for (const c of calls) if (leaksIn(JSON.stringify(c)).length) failures.push(`turn ${n}: ${c.type} holds a piece of the value`);
  }
  sub.close();
  const db = new Database(join(t.home, "coffer.db"), { readonly: true });
  const stored = (db.prepare("SELECT content FROM messages WHERE conversation_id = ? AND role = 'assistant' ORDER BY seq").all(id) as { content: string }[]).map((r) => r.content);
  db.close();
  console.log(`[reliability] agent-output fuzz: ${TURNS} turns, ${deltas} deltas, ${tools} tool calls; ${failures.length} failures`);
  expect(failures.slice(0, 10)).toEqual([]);
  expect(stored).toHaveLength(TURNS);
  expect(leaksIn(stored.join("\n"))).toEqual([]);
  expect(leaksIn(sub.raw)).toEqual([]);
  expect(sub.raw).toContain(MARK);
}, 120_000);

test("the wire scan ignores the daemon's own random ids and numbers, never the agent's text", () => {
  const hex = FORMS[3]!;
  const id = `${hex.slice(0, 6)}${"0".repeat(26)}`;
  const wire = `id: ${hex.slice(6, 12)}-1\ndata: {"turn_id":"${id}","seq":${Number.parseInt(hex.slice(12, 18).replace(/\D/g, "1"), 10)},"text":"ok"}\n`;
  expect(leaksIn(wire)).toEqual([]);
  expect(leaksIn(`data: {"turn_id":"${id}","text":"${hex.slice(20, 26)}"}`)).toEqual([hex.slice(20, 26)]);
});

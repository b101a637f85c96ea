/**
 * Reconnect: turns watched by a client whose SSE connection drops and resumes with
 * Last-Event-ID; on `resync` it refetches the persisted message. The text it rebuilds must
 * equal what the agent actually emitted (the scripted agent's own record of its deltas) — and
 * the persisted text — with no duplicated and no missing delta or event id. Drops happen on
 * both sides: the client abandons connections at random frames, and a TCP proxy in front of
 * the daemon resets connections after a random number of bytes (mid-frame).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { script } from "../support/scripted-agent.js";
import { startTcpProxy } from "../support/tcp-proxy.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { prng } from "../support/prng.js";
import { ResumingReader, textOf } from "./resuming-reader.js";

const DELTAS_PER_TURN = 40;
const SEED = Number(process.env.COFFER_SSE_SEED ?? 8_675_309);

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

/** Runs `turns` paced turns through `reader` and checks each against the agent's record. */
async function watchTurns(reader: ResumingReader, id: string, turns: number, random: () => number) {
  let fromPersisted = 0;
  let deltas = 0;
  for (let n = 0; n < turns; n++) {
    const ended = reader.expectTurn();
    // Paced, so drops land mid-turn as well as around its edges.
    const res = await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ clock: DELTAS_PER_TURN, perSecond: 800 }) });
    expect(res.status).toBe(202);
    if (random() < 0.15) await reader.reconnect();
    await ended;
    const turn = reader.turn;
    const emitted = t.scripted.turns.at(-1)!;
    const persisted = (await t.api.get(`/chat/conversations/${id}/messages?limit=1`)).body.messages[0];
    const where = `turn ${n} (seed ${SEED})`;
    expect(emitted.conversationId, where).toBe(id);
    expect(emitted.emitted.split("\n").filter(Boolean), where).toHaveLength(DELTAS_PER_TURN);
    expect(persisted.status, where).toBe("complete");
    expect(turn.assistantId, where).toBe(persisted.id);
    expect(turn.text, `${where}: rebuilt == emitted by the agent`).toBe(emitted.emitted);
    expect(textOf(persisted), `${where}: persisted == emitted by the agent`).toBe(emitted.emitted);
    expect([turn.duplicates, turn.gaps], `${where} duplicates, gaps`).toEqual([0, 0]);
    if (turn.fromPersisted) fromPersisted += 1;
    else deltas += turn.next;
  }
  expect([reader.idDuplicates, reader.idGaps], `event ids (seed ${SEED})`).toEqual([0, 0]);
  return { fromPersisted, deltas };
}

test(`random client-side SSE drops across 100 turns: rebuilt text == emitted, 0 duplicates, 0 gaps`, async () => {
  const started = Date.now();
  const random = prng(SEED);
  const id = await t.conversation();
  const reader = new ResumingReader(t.daemon.url, t.daemon.token, id, 0.03, random);
  await reader.connect();
  try {
    const { fromPersisted, deltas } = await watchTurns(reader, id, 100, random);
    expect(reader.drops).toBeGreaterThan(50);
    console.log(
      `[reliability] SSE client drops: 100 turns, ${reader.drops} drops, ${reader.connections} connections, ${reader.resyncs} resyncs ` +
        `(${fromPersisted} turns rebuilt from the persisted message), ${deltas} deltas folded from events; 0 duplicates, 0 gaps, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    reader.close();
  }
}, 120_000);

test(`server-side resets mid-frame (TCP proxy) across 50 turns: rebuilt text == emitted, 0 duplicates, 0 gaps`, async () => {
  const started = Date.now();
  const random = prng(SEED + 1);
  // Most connections are cut somewhere in their first ~2 KB (a turn is ~1.5 KB): inside a frame, between
  // frames, inside the headers' tail — wherever the byte falls.
  const proxy = await startTcpProxy(t.daemon.port, { cutAfterBytes: () => (random() < 0.8 ? 100 + Math.floor(random() * 2000) : null) });
  const id = await t.conversation();
  const reader = new ResumingReader(proxy.url, t.daemon.token, id, 0, random, t.daemon.url);
  await reader.connect();
  try {
    const { fromPersisted, deltas } = await watchTurns(reader, id, 50, random);
    // Some cuts hit a connection the client was already abandoning (its own reconnects).
    expect(proxy.cuts).toBeGreaterThan(10);
    expect(reader.serverDrops).toBeGreaterThan(10);
    console.log(
      `[reliability] SSE server resets: 50 turns, ${proxy.cuts} mid-stream resets (${reader.serverDrops} seen by the reader), ${reader.connections} connections, ${reader.resyncs} resyncs ` +
        `(${fromPersisted} from the persisted message), ${deltas} deltas folded; 0 duplicates, 0 gaps, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    reader.close();
    await proxy.close();
  }
}, 120_000);

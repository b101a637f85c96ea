/**
 * Reconnect: 100 turns watched by a client that drops its SSE connection at random
 * frames (and sometimes between turns) and resumes with Last-Event-ID; on `resync` it
 * refetches the persisted message. The text it rebuilds must equal the persisted text,
 * with no duplicated and no missing delta or event id.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { prng, ResumingReader, textOf } from "./resuming-reader.js";

const TURNS = 100;
const DELTAS_PER_TURN = 40;

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

test(`random SSE drops across ${TURNS} turns: rebuilt text == persisted, 0 duplicates, 0 gaps`, async () => {
  const started = Date.now();
  const random = prng(8_675_309);
  const id = await t.conversation();
  const reader = new ResumingReader(t.daemon.url, t.daemon.token, id, 0.03, random);
  await reader.connect();
  let fromPersisted = 0;
  let deltas = 0;
  try {
    for (let n = 0; n < TURNS; n++) {
      const ended = reader.expectTurn();
      // Paced, so drops land mid-turn as well as around its edges.
      const res = await t.api.post(`/chat/conversations/${id}/messages`, {
        text: script({ clock: DELTAS_PER_TURN, perSecond: 800 }),
      });
      expect(res.status).toBe(202);
      if (random() < 0.15) await reader.reconnect();
      await ended;
      const turn = reader.turn;
      const messages = (await t.api.get(`/chat/conversations/${id}/messages?limit=1`)).body.messages;
      const persisted = messages[0];
      expect(persisted.status, `turn ${n}`).toBe("complete");
      expect(turn.assistantId, `turn ${n}`).toBe(persisted.id);
      expect(turn.text, `turn ${n}`).toBe(textOf(persisted));
      expect([turn.duplicates, turn.gaps], `turn ${n} duplicates, gaps`).toEqual([0, 0]);
      if (turn.fromPersisted) fromPersisted += 1;
      else deltas += turn.next;
    }
  } finally {
    reader.close();
  }
  expect([reader.idDuplicates, reader.idGaps]).toEqual([0, 0]);
  expect(reader.drops).toBeGreaterThan(TURNS / 2);
  console.log(
    `[reliability] SSE reconnects: ${TURNS} turns, ${reader.drops} drops, ${reader.connections} connections, ${reader.resyncs} resyncs ` +
      `(${fromPersisted} turns rebuilt from the persisted message), ${deltas} deltas folded from events; 0 duplicates, 0 gaps, ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}, 120_000);

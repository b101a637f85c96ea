import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "../../src/infrastructure/sqlite/database.js";
import { openChatStores } from "../../src/infrastructure/sqlite/stores/sqlite-chat-stores.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { join } from "node:path";
import { prng } from "../support/prng.js";

/**
 * The search answer, byte for byte: a fixed corpus (fixed ids and times) answered over HTTP by
 * a real daemon, each answer's SHA-256 pinned. Work on the search's cost (issue 23, "The search
 * route's own cost") must leave every byte of it as it was; a change of the answer itself is a
 * change of this table, made on purpose.
 */

// Frequent words first (picked most), then the cases the probes and snippets must get right:
// case, diacritics, other scripts, underscores, digits, prefixes of other words.
const VOCAB = [
  "the", "of", "and", "to", "find", "that", "deploy", "server", "rollback", "config", "branch", "finder",
  "Find", "FIND", "x_find", "café", "Ünïcode", "naïve", "日本語", "deploy2", "v8", "déployer", "kubernetes",
  "zebra", "fjord", "ångström", "theory", "refind",
];

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

function seed(file: string): void {
  const db = openDatabase(file);
  const { conversations: store, messages: messageStore } = openChatStores(db);
  const random = prng(23);
  const pick = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * random() ** 2.5))]!;
  const sentence = (n: number) => Array.from({ length: n }, pick).join(" ");
  for (let c = 0; c < 120; c++) {
    const id = `pin${String(c).padStart(4, "0")}`;
    const at = T0 + c * 1000;
    store.insertConversation({ id, agentKey: "scripted", title: c % 13 === 0 ? `Zebra ${sentence(2)}` : sentence(4), titleSetByOwner: false, agentConfig: c % 3 ? {} : { model: "pin-model" }, channel: null, now: at });
    // Every tenth is long enough to span several 16 KB chunks: a word may be in an older chunk only.
    const messages = c % 10 === 0 ? 140 : 2 + Math.floor(random() * 9);
    for (let m = 0; m < messages; m++) {
      const mid = `${id}-m${String(m).padStart(3, "0")}`;
      const words = c % 10 === 0 ? 30 : 3 + Math.floor(random() * 25);
      const text = m % 7 === 3 ? `${sentence(words)}\n${sentence(4)}` : sentence(words);
      const content = m % 5 === 4
        ? [{ type: "tool_use" as const, tool_use_id: `t${m}`, tool_name: "Bash", tool_input: { command: "npm test find" } }, { type: "text" as const, text }]
        : [{ type: "text" as const, text }];
      messageStore.insertMessage({ id: mid, conversationId: id, role: m % 2 ? "assistant" : "user", content, status: "streaming", modelId: null, clientId: null, now: at + m });
      messageStore.finalizeMessage(mid, { content, status: m % 11 === 6 ? "failed" : "complete", modelId: m % 2 ? "pin-model" : null, promptTokens: null, completionTokens: null, stopReason: null, error: null });
    }
    if (c % 17 === 5) messageStore.deleteMessage(`${id}-m001`);
    if (c % 19 === 7) store.renameConversation(id, `Renamed ${sentence(2)}`, true, at + 500);
    store.touchConversation(id, T0 + DAY + (c % 9 === 0 ? 0 : c) * 60_000);
    if (c % 11 === 2) store.setArchived(id, T0 + 2 * DAY);
  }
  // A fixed year in the past: keep it, so the retention pass at start archives nothing.
  const keep = db.prepare("INSERT INTO settings (key, value, updated_at) VALUES (?, 'null', ?)");
  for (const key of ["retention.archive_after_days", "retention.delete_after_days"]) keep.run(key, T0);
  db.close();
}

/** Query string → SHA-256 of the answer's body, as it was before the route's cost was cut. */
const PINNED: Record<string, string> = {
  "q=find": "c5cb2c182d0ccee866637d490f959e4546ed332fb4d7cac8d374fbacb302de26",
  "q=the": "b4e6d03664535d86495e12e730050c906c149b47d6f475eb16c57e2a71fd713b",
  "q=the%20find": "18eac3a7f700177b4385199b67c9a35669188dba1b6d64ed08f652efdb206cac",
  "q=deploy%20server": "b99d5b0758e64cece781139abc8f7dc1f434067db96fc9e21be774ed0294b043",
  "q=cafe": "3d113b48d47914e343b5530044b73371850b17e1b6b28142507bc9bc17701270",
  "q=caf%C3%A9": "3d113b48d47914e343b5530044b73371850b17e1b6b28142507bc9bc17701270",
  "q=%E6%97%A5%E6%9C%AC": "ca342a217a6f9e27e205d2f07050fe179957974ae405c2571c5e4c215d7ebee4",
  "q=d": "f03f27e1a062faf8d07e67f9a720592d04e41e2ecde5f7f80ced4852cb835d8f",
  "q=th": "35f3df46f40f5537342ce1fdd25372cd2bf12a95170db1e98dd153d85a0fe9ab",
  "q=zebra": "93d549bd320942d8603281ace7083a3dc7bcf2bc3cd3fdca5fcecb480c226877",
  "q=renamed": "055ca7bce71f8087a178af3946ba41eb8467681de09e0319c5f06f66e991257a",
  "q=x_find": "818d94d7f91882c79ac3251ab7fe3e43241df9873f95d853f58f3a5b40fceada",
  "q=v8": "88f8f1dfdace64f9c456eeebaa6766bb8532a81675472d1af18959ba34ce1ad4",
  "q=angstrom": "9936857e2ff47383f72cf430b1e22960e3a6d65475ca42e50ac6739cf614dd16",
  "q=kubernetes%20the": "d0fd34b86e004afb2894f5413235522bb24fc97ce439d519336d05bd4fd4e957",
  "q=nothingmatches": "6a44daaa2c0239aafca6551a761375b2583aea5035522cd0849598124ab86d0b",
  "q=find&limit=50": "0a37dd7276d2259fb5da96a17d5739e518df90f716f546ab5d8a2e98d17c9685",
  "q=the&limit=7": "2f6985a319b663873264ec32370f0409388c13616b7f2335c351d80a73059f15",
  "q=the&archived=true": "00ea24709cebee8210e3e9694cbfaad9c90ad6e43e4bde503b805b07b0089a57",
  "q=fin&limit=3": "4113371c5ffff0a71f1cbaaa43234aa1d075c1888e97faf87ea53d32b07416fc",
  "q=the&limit=7, page 2": "f32142b44890ff1c23851050bd4baad61c71abf9fd7379729ad476787006ec56",
};

let t: TestDaemon;
beforeAll(async () => {
  const home = await makeHome();
  seed(join(home, "coffer.db"));
  t = await startTestDaemon({ home });
  // A known credential: every answer then passes the secret scrubber, as on a real install.
  const put = await t.api.put("/credentials/pin.provider", { secret: "sk-pin-0123456789abcdef" });
  expect(put.status).toBeLessThan(300);
}, 60_000);
afterAll(() => t.close());

async function raw(path: string): Promise<string> {
  const res = await fetch(`${t.daemon.url}/api/v1${path}`, { headers: { authorization: `Bearer ${t.daemon.token}` } });
  expect(res.status, path).toBe(200);
  return res.text();
}

const QUERIES = [
  "q=find", "q=the", "q=the%20find", "q=deploy%20server", "q=cafe", "q=caf%C3%A9", "q=%E6%97%A5%E6%9C%AC", "q=d", "q=th",
  "q=zebra", "q=renamed", "q=x_find", "q=v8", "q=angstrom", "q=kubernetes%20the", "q=nothingmatches", "q=find&limit=50",
  "q=the&limit=7", "q=the&archived=true", "q=fin&limit=3",
];

describe("the search answer", () => {
  test("every search answers the same bytes as before its cost was cut", async () => {
    const got: Record<string, string> = {};
    for (const q of QUERIES) {
      const body = await raw(`/chat/conversations?${q}`);
      got[q] = createHash("sha256").update(body).digest("hex");
      // The corpus reaches the cases: most queries find something, and snippets are cut from messages.
      if (q === "q=find") expect(JSON.parse(body).conversations.filter((c: { match: { message_id: string | null } }) => c.match.message_id).length).toBeGreaterThan(10);
    }
    // The second page of a frequent word, through its cursor.
    const first = JSON.parse(await raw("/chat/conversations?q=the&limit=7")) as { next_cursor: string | null };
    expect(first.next_cursor).not.toBeNull();
    const second = await raw(`/chat/conversations?q=the&limit=7&cursor=${encodeURIComponent(first.next_cursor!)}`);
    got["q=the&limit=7, page 2"] = createHash("sha256").update(second).digest("hex");
    expect(got).toEqual(PINNED);
  }, 60_000);
});

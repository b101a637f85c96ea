import type { ConversationOut, SearchMatch } from "@coffer/protocol";
import { describe, expect, it } from "vitest";
import { acceptance } from "../../../test/acceptance.js";
import { rankJumpResults, titleHighlights } from "./palette-ranking.js";

let n = 0;
function conv(title: string, updated: string, match?: SearchMatch): ConversationOut {
  n += 1;
  return {
    id: `c${n}`,
    agent_key: "scripted",
    title,
    model_id: null,
    agent_model: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: `2026-01-${updated}T00:00:00.000Z`,
    archived_at: null,
    channel_binding: null,
    running: false,
    ...(match ? { match } : {}),
  };
}
const inMessage = (snippet: string, at: number, word: string): SearchMatch => ({ message_id: "m1", snippet, highlights: [[at, at + word.length]] });
const titles = (rows: ReturnType<typeof rankJumpResults>) => rows.map((r) => r.conversation.title);

describe("the jump palette's ranking", () => {
  acceptance("022-screens-true", "the jump palette ranks title matches above message matches and shows snippets for content", () => {
    // The daemon answers newest first: two message hits are newer than the title hit.
    const body1 = conv("Lunch plans", "20", inMessage("we should deploy on friday", 10, "deploy"));
    const body2 = conv("Random notes", "19", inMessage("deploy failed again", 0, "deploy"));
    const title = conv("Deploy checklist", "05", { message_id: null, snippet: "Deploy checklist", highlights: [[0, 6]] });
    const ranked = rankJumpResults("deploy", [], [body1, body2, title], 12);
    expect(titles(ranked)).toEqual(["Deploy checklist", "Lunch plans", "Random notes"]);
    expect(ranked[0]).toMatchObject({ titleMatch: true, match: null });
    // Content hits carry the daemon's snippet and its marked terms.
    expect(ranked[1]).toMatchObject({ titleMatch: false, match: { snippet: "we should deploy on friday", highlights: [[10, 16]] } });
  });

  it("a title that holds the words ranks first even when the daemon's snippet is from a message", () => {
    const both = conv("Deploy the staging box", "02", inMessage("staging deploy is done", 8, "deploy"));
    const body = conv("Other", "10", inMessage("deploy staging now", 0, "deploy"));
    expect(titles(rankJumpResults("staging deploy", [], [body, both], 12))).toEqual(["Deploy the staging box", "Other"]);
  });

  it("before the daemon answers, the loaded titles filter by every word, in any order, folding case and accents", () => {
    const loaded = [conv("Deploy the staging box", "03"), conv("Fix the flaky test", "02"), conv("Staging notes", "01"), conv("Café menu", "04")];
    expect(titles(rankJumpResults("staging deploy", loaded, null, 12))).toEqual(["Deploy the staging box"]);
    expect(titles(rankJumpResults("STAG", loaded, null, 12))).toEqual(["Deploy the staging box", "Staging notes"]);
    expect(titles(rankJumpResults("cafe", loaded, null, 12))).toEqual(["Café menu"]);
    expect(rankJumpResults("  ", loaded, null, 12)).toHaveLength(4);
  });

  it("title hits from what is loaded and from the daemon merge once each, newest first, and the list is capped", () => {
    const old = conv("Release notes", "01");
    const fresh = conv("Release train", "09");
    const found = { ...old, updated_at: "2026-01-11T00:00:00.000Z", match: { message_id: null, snippet: "Release notes", highlights: [] } };
    const hits = Array.from({ length: 12 }, (_, i) => conv(`Chat ${i}`, "08", inMessage("a release went out", 2, "release")));
    const ranked = rankJumpResults("release", [old, fresh], [found, ...hits], 5);
    expect(titles(ranked)).toEqual(["Release notes", "Release train", "Chat 0", "Chat 1", "Chat 2"]);
  });

  it("marks the typed words in a title, and nothing where folding moved the letters", () => {
    expect(titleHighlights("Deploy the deploy box", ["deploy"])).toEqual([
      [0, 6],
      [11, 17],
    ]);
    expect(titleHighlights("Cafe\u0301 menu", ["cafe"])).toEqual([]);
  });
});

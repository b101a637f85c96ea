import { describe, expect, it } from "vitest";
import { ManualAlarmClock } from "../../../test/support/manual-alarm-clock.js";
import { AlbumGatherer, compareUpdateIds } from "./album-gatherer.js";
import type { InboundUpdate } from "./ports.js";
import { overCapLine, overPlatformLimitLine, sizeText } from "./phone-file-lines.js";

const part = (updateId: number, chatId: string, group: string): InboundUpdate & { mediaGroupId: string } => ({
  updateId: String(updateId),
  chatId,
  threadId: null,
  chatType: "private",
  sender: { id: "1", name: "Ada" },
  text: null,
  files: [{ kind: "photo", fileId: `f${updateId}`, name: `photo-${updateId}.jpg`, mediaType: "image/jpeg", size: 10 }],
  mediaGroupId: group,
});

function gatherer() {
  const clock = new ManualAlarmClock(1_000);
  const albums: number[][] = [];
  const g = new AlbumGatherer(clock, 1500, (parts) => albums.push(parts.map((p) => Number(p.updateId))));
  return { clock, albums, g };
}

describe("AlbumGatherer", () => {
  it("sends an album once it was quiet for the window after its last part, parts in update order, each once", () => {
    const { clock, albums, g } = gatherer();
    g.add(part(12, "c", "a"));
    clock.advanceBy(1000);
    g.add(part(11, "c", "a"));
    g.add(part(11, "c", "a")); // redelivered
    clock.advanceBy(1499);
    expect(albums).toEqual([]);
    clock.advanceBy(1);
    expect(albums).toEqual([[11, 12]]);
    expect(clock.pending).toBe(0);
  });

  it("keeps albums of different groups and chats apart; closing a chat sends only that chat's", () => {
    const { clock, albums, g } = gatherer();
    g.add(part(1, "c1", "a"));
    g.add(part(2, "c1", "b"));
    g.add(part(3, "c2", "a"));
    g.closeChat("c1");
    expect(albums).toEqual([[1], [2]]);
    clock.advanceBy(1500);
    expect(albums).toEqual([[1], [2], [3]]);
  });

  it("abandon drops open albums with their timers", () => {
    const { clock, albums, g } = gatherer();
    g.add(part(1, "c", "a"));
    g.abandon();
    expect(clock.pending).toBe(0);
    clock.advanceBy(5000);
    expect(albums).toEqual([]);
  });
});

describe("phone file lines", () => {
  it("sizes read as a phone shows them", () => {
    expect([sizeText(300), sizeText(300 * 1024), sizeText(20 * 1024 * 1024), sizeText(25.34 * 1024 * 1024)]).toEqual(["1 KB", "300 KB", "20 MB", "25.3 MB"]);
  });

  it("name the file, its size and the limit; say nothing was sent and where bigger files go", () => {
    expect(overPlatformLimitLine("a.zip", null, 20 * 1024 * 1024, 50 * 1024 * 1024, "Telegram")).toBe(
      "⚠️ “a.zip” is over Telegram's 20 MB limit for files a bot may download, so nothing was sent. Send it from the page or with `coffer chat send --attach`, which take files up to 50 MB.",
    );
    expect(overCapLine("b.bin", 60 * 1024 * 1024, 50 * 1024 * 1024)).toContain("“b.bin” (60 MB) is over the 50 MB limit");
  });
});

describe("compareUpdateIds", () => {
  it("orders opaque decimal ids by their value, not as text (9 before 10; snowflakes past 2^53 too)", () => {
    expect(["10", "9", "100"].sort(compareUpdateIds)).toEqual(["9", "10", "100"]);
    expect(["1180000000000000001", "1180000000000000000"].sort(compareUpdateIds)).toEqual(["1180000000000000000", "1180000000000000001"]);
  });
});

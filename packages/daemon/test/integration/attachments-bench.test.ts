/**
 * bench/attachments runs and holds its bar (issue 25): the bench's own code, one run per surface
 * — a 5 MB PNG and the same text-only message from the page's HTTP path and from the built CLI,
 * and a 5 MB JPEG photo from the paired phone (grammY against the fake Bot API), to each REAL
 * agent's first model request at the fake servers (the fake sees the image) — then
 * 10 × 30 MB uploads at once against the same daemon process: its peak RSS grows by less than the
 * bench's bar (two uploads' worth). The figures themselves are `npm run bench:attachments`'s (more runs, printed).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { noiseJpeg, noisePng } from "../../../../bench/attachments/image.js";
import { cliSurface, pageSurface } from "../../../../bench/attachments/surfaces.js";
import { telegramSurface } from "../../../../bench/attachments/telegram-surface.js";
import { agentAvailable, imageTurns, startBenchRig, type BenchRig } from "../../../../bench/attachments/turns.js";
import { GROWTH_BAR_MB, measureUploadRss } from "../../../../bench/attachments/upload-rss.js";
import { AGENTS } from "../fakes/agent-rig.js";
import { acceptance } from "../support/acceptance.js";

const files = mkdtempSync(join(tmpdir(), "coffer-attach-bench-"));
let b: BenchRig;
beforeAll(async () => {
  b = await startBenchRig();
}, 60_000);
afterAll(() => b?.close());

describe("bench/attachments", () => {
  acceptance(
    "025-attachments",
    "bench/attachments: a 5 MB image per surface to the agent's first request against text-only, and peak RSS under 10 × 30 MB uploads",
    async () => {
      const image = join(files, "screenshot.png");
      const png = await noisePng(5);
      expect(png.length).toBeGreaterThan(5 * 1024 * 1024);
      writeFileSync(image, png);
      const photo = await noiseJpeg(5);
      expect(photo.length).toBeGreaterThanOrEqual(5 * 1024 * 1024);
      const phone = await telegramSurface(b.d, b.tg, photo);
      for (const agent of AGENTS) {
        expect(await agentAvailable(b, agent)).toBe(true);
        // imageTurns throws unless each image turn's first request carries an image and each text one none.
        const columns = await imageTurns(b, agent, [pageSurface, cliSurface, phone], image, 1);
        expect([...columns.keys()]).toEqual(["page", "CLI", "Telegram"]);
        for (const c of columns.values()) {
          expect(c.text).toHaveLength(1);
          expect(c.image).toHaveLength(1);
          for (const ms of [...c.text, ...c.image]) expect(ms).toBeGreaterThan(0);
        }
      }
      const upload = join(files, "upload.bin");
      writeFileSync(upload, randomBytes(30 * 1024 * 1024));
      const m = await measureUploadRss({ ...b.d, pid: b.child.pid }, upload, 10);
      expect(m.sentMb).toBe(300);
      // Bounded: the uploads stream to disk, so the daemon holds none of the files whole.
      expect(m.peakMb - m.idleMb).toBeLessThan(GROWTH_BAR_MB);
    },
    180_000,
  );
});

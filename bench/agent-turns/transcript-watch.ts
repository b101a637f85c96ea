/**
 * How a per-message peer's second watcher learns of a reply: it has no live bus, so another
 * tab sees the reply once the agent CLI has written it to its transcript on disk (Claude's
 * session JSONL, Codex's rollout) and a file watcher fires. This resolves at the first file
 * event after which a transcript holds `needle` — no debounce or re-fetch added, which
 * flatters the peer.
 */
import { watch } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export interface TranscriptWatch {
  /** performance.now() when the needle was first seen on disk. */
  readonly seen: Promise<number>;
  close(): void;
}

export function watchTranscripts(dir: string, needle: string): TranscriptWatch {
  let resolve!: (at: number) => void;
  const seen = new Promise<number>((r) => (resolve = r));
  let done = false;
  const check = async (file: string) => {
    if (done || !file.endsWith(".jsonl")) return;
    const at = performance.now();
    const text = await readFile(join(dir, file), "utf8").catch(() => "");
    if (!done && text.includes(needle)) {
      done = true;
      resolve(at);
    }
  };
  const watcher = watch(dir, { recursive: true }, (_event, file) => void (file && check(file.toString())));
  // Already there before the watch started (cannot happen for a fresh needle, but be exact).
  void readdir(dir, { recursive: true }).then((files) => files.forEach((f) => void check(f.toString())));
  return {
    seen,
    close: () => {
      done = true;
      watcher.close();
    },
  };
}

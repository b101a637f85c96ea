import { statSync } from "node:fs";
import type { DatabaseFiles } from "../../application/warm-pool/warm-pool-ports.js";

/** The database file and its write-ahead log, as sized on disk now. */
export function databaseFiles(file: string): DatabaseFiles {
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0; // no WAL between checkpoints
    }
  };
  return { sizes: () => ({ fileBytes: size(file), walBytes: size(`${file}-wal`) }) };
}

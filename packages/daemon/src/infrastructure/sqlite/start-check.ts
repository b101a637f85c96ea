import { statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../application/ports.js";
import { readDaemonInfo } from "../system/daemon-info-file.js";

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/**
 * Whether this start reads coffer.db whole (quick_check) before serving it (docs/decisions.md,
 * "The integrity check at start stays fast"). quick_check reads every page: ~1 s per 100 MB here,
 * so a large file would miss the 1 s start. A file up to `maxBytes` is always read; a larger one
 * only when the last run did not stop cleanly (daemon.json is removed on a clean stop, so one left
 * behind means a crash, kill -9 or power loss: when a torn page is likeliest). `coffer doctor`
 * and every restore check the whole file whatever its size.
 */
export function startCheck(home: string, maxBytes: number, logger: Logger): boolean {
  const file = join(home, "coffer.db");
  const bytes = sizeOf(file) + sizeOf(`${file}-wal`);
  if (bytes <= maxBytes) return true;
  if (readDaemonInfo(home) !== null) {
    logger.info("the last run did not stop cleanly: checking the whole database before serving it", { bytes });
    return true;
  }
  logger.info("integrity check at start skipped: a large database after a clean stop (coffer doctor checks it whole)", { bytes, max_bytes: maxBytes });
  return false;
}

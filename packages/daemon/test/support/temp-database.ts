import { join } from "node:path";
import { openDatabase, type Db } from "../../src/infrastructure/sqlite/database.js";
import { cleanupAfterEach } from "./cleanup.js";

/** A fresh SQLite file per call, in its own temp folder; closed and removed after each test. */
export function tempDatabases(prefix: string): () => Db {
  const { cleanup, tempDir } = cleanupAfterEach();
  return () => {
    const db = openDatabase(join(tempDir(prefix), "coffer.db"));
    cleanup.push(() => db.close());
    return db;
  };
}

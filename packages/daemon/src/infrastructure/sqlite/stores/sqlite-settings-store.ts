import type { SettingsStore } from "../../../application/retention/ports.js";
import type { Db } from "../database.js";

/** Small owner settings as JSON values under a key. */
export class SqliteSettingsStore implements SettingsStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      get: db.prepare("SELECT value FROM settings WHERE key = ?"),
      set: db.prepare(`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
                       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`),
    };
  }

  get(key: string): unknown {
    const row = this.s.get.get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as unknown) : undefined;
  }

  set(key: string, value: unknown, now: number): void {
    this.s.set.run(key, JSON.stringify(value), now);
  }
}

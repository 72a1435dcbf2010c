import type { DatabaseSync, StatementSync } from "node:sqlite";
import { toStoreError } from "./sqlite_errors.ts";

/** Per-plugin key-value state, the store behind `ctx.state`. */
export class StateTable {
  #get: StatementSync;
  #set: StatementSync;
  #delete: StatementSync;
  #list: StatementSync;

  /**
   * Creates it.
   * @param db An open, migrated database.
   */
  constructor(db: DatabaseSync) {
    this.#get = db.prepare("SELECT value FROM plugin_state WHERE plugin = ? AND key = ?");
    this.#set = db.prepare(
      "INSERT INTO plugin_state (plugin, key, value, updated_at) VALUES (?, ?, ?, ?) " +
        "ON CONFLICT (plugin, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    );
    this.#delete = db.prepare("DELETE FROM plugin_state WHERE plugin = ? AND key = ?");
    this.#list = db.prepare("SELECT key, value FROM plugin_state WHERE plugin = ? ORDER BY key");
  }

  /** The value of `key` for `plugin`, or null. */
  get(plugin: string, key: string): string | null {
    try {
      const row = this.#get.get(plugin, key) as { value: string } | undefined;
      return row?.value ?? null;
    } catch (error) {
      throw toStoreError(error, `reading state of ${plugin}`);
    }
  }

  /** Sets `key` to `value` for `plugin`. */
  set(plugin: string, key: string, value: string): void {
    try {
      this.#set.run(plugin, key, value, new Date().toISOString());
    } catch (error) {
      throw toStoreError(error, `writing state of ${plugin}`);
    }
  }

  /** Deletes `key` for `plugin`. */
  delete(plugin: string, key: string): void {
    try {
      this.#delete.run(plugin, key);
    } catch (error) {
      throw toStoreError(error, `deleting state of ${plugin}`);
    }
  }

  /** Every key and value of `plugin`. */
  list(plugin: string): Record<string, string> {
    try {
      const out: Record<string, string> = {};
      for (const row of this.#list.all(plugin) as { key: string; value: string }[]) {
        out[row.key] = row.value;
      }
      return out;
    } catch (error) {
      throw toStoreError(error, `listing state of ${plugin}`);
    }
  }
}

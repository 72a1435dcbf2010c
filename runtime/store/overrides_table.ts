import type { DatabaseSync } from "node:sqlite";
import { toStoreError } from "./sqlite_errors.ts";

/** The person's decision on one capability of one plugin. */
export interface PermissionOverride {
  /** The capability. */
  capability: string;
  /** Grant or deny. */
  decision: "grant" | "deny";
  /** For a grant, what exactly: hosts for network, commands for `shell:run`. */
  scope: string[];
}

/** Permission overrides set with `cortex plugins permissions`. */
export class OverridesTable {
  #db: DatabaseSync;

  /**
   * Creates it.
   * @param db An open, migrated database.
   */
  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Every override of `plugin`. */
  list(plugin: string): PermissionOverride[] {
    try {
      const rows = this.#db.prepare(
        "SELECT capability, decision, scope FROM permission_overrides WHERE plugin = ? ORDER BY capability",
      ).all(plugin) as { capability: string; decision: "grant" | "deny"; scope: string | null }[];
      return rows.map((r) => ({
        capability: r.capability,
        decision: r.decision,
        scope: r.scope ? r.scope.split(",").filter((s) => s !== "") : [],
      }));
    } catch (error) {
      throw toStoreError(error, `reading permissions of ${plugin}`);
    }
  }

  /** Sets one override, replacing any earlier one for the same capability. */
  set(plugin: string, override: PermissionOverride): void {
    try {
      this.#db.prepare(
        "INSERT INTO permission_overrides (plugin, capability, decision, scope, updated_at) VALUES (?, ?, ?, ?, ?) " +
          "ON CONFLICT (plugin, capability) DO UPDATE SET decision = excluded.decision, scope = excluded.scope, updated_at = excluded.updated_at",
      ).run(
        plugin,
        override.capability,
        override.decision,
        override.scope.length ? override.scope.join(",") : null,
        new Date().toISOString(),
      );
    } catch (error) {
      throw toStoreError(error, `writing permissions of ${plugin}`);
    }
  }
}

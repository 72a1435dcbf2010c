/**
 * The runtime's store: one SQLite database (node:sqlite, WAL) under
 * `<home>/data/cortex.db` holding the plugins table, plugin state,
 * permission overrides and the audit log.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { openDatabase, type OpenDatabaseOptions } from "./database.ts";
import { AuditLog } from "./audit_log.ts";
import { OverridesTable } from "./overrides_table.ts";
import { PluginsTable } from "./plugins_table.ts";
import { StateTable } from "./state_table.ts";

export { inTransaction, openDatabase, type OpenDatabaseOptions, schemaVersion } from "./database.ts";
export { type AuditEntry, AuditLog, type AuditLogOptions } from "./audit_log.ts";
export { OverridesTable, type PermissionOverride } from "./overrides_table.ts";
export {
  type PluginRow,
  PluginsTable,
  type PluginStatus,
  type StatusChange,
  type TrustLevel,
} from "./plugins_table.ts";
export { StateTable } from "./state_table.ts";
export { toStoreError } from "./sqlite_errors.ts";
export { type Migration, MIGRATIONS } from "./migrations.ts";

/** The open store: the database and one object per table. */
export class Store {
  /** The database connection. */
  readonly db: DatabaseSync;
  /** The plugins table. */
  readonly plugins: PluginsTable;
  /** Plugin state. */
  readonly state: StateTable;
  /** Permission overrides. */
  readonly overrides: OverridesTable;
  /** The audit log. */
  readonly audit: AuditLog;

  /**
   * Opens the database at `path`.
   *
   * @example
   * ```ts
   * import { Store } from "./mod.ts";
   * const store = new Store(":memory:");
   * console.log(store.plugins.list());
   * store.close();
   * ```
   */
  constructor(path: string, options: OpenDatabaseOptions = {}) {
    this.db = openDatabase(path, options);
    this.plugins = new PluginsTable(this.db);
    this.state = new StateTable(this.db);
    this.overrides = new OverridesTable(this.db);
    this.audit = new AuditLog(this.db);
  }

  /** Flushes the audit log and closes the database. */
  close(): void {
    this.audit.flush();
    this.db.close();
  }
}

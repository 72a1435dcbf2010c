/**
 * Forward-only schema migrations. A migration is never edited once it has
 * shipped; a change is a new, higher version.
 *
 * @module
 */

/** One schema migration. */
export interface Migration {
  /** Strictly increasing version number. */
  version: number;
  /** What it does. */
  description: string;
  /** The SQL to run, inside the migration's transaction. */
  sql: string;
}

/** Every migration, in order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "plugins table, state, permission overrides, audit",
    sql: `
      CREATE TABLE plugins (
        name TEXT PRIMARY KEY,
        version TEXT NOT NULL,
        type TEXT NOT NULL,
        runtime TEXT NOT NULL,
        entry TEXT NOT NULL,
        manifest_json TEXT NOT NULL,
        declared_permissions TEXT NOT NULL DEFAULT '',
        effective_permissions TEXT NOT NULL DEFAULT '',
        author TEXT,
        description TEXT,
        license TEXT,
        source TEXT,
        integrity_hash TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        status TEXT NOT NULL DEFAULT 'unloaded'
          CHECK (status IN ('unloaded', 'loading', 'active', 'unloading', 'error')),
        trust_level TEXT NOT NULL DEFAULT 'untrusted'
          CHECK (trust_level IN ('untrusted', 'signed', 'trusted')),
        error_message TEXT,
        load_attempts INTEGER NOT NULL DEFAULT 0,
        installed_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        last_load_at TEXT,
        dependencies_json TEXT,
        config_schema_json TEXT,
        tree_hash TEXT NOT NULL,
        install_hook_ran INTEGER NOT NULL DEFAULT 0,
        timeout_ms INTEGER
      );
      CREATE TABLE plugin_state (
        plugin TEXT NOT NULL REFERENCES plugins(name) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (plugin, key)
      );
      CREATE TABLE permission_overrides (
        plugin TEXT NOT NULL REFERENCES plugins(name) ON DELETE CASCADE,
        capability TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('grant', 'deny')),
        scope TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (plugin, capability)
      );
      CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        caller TEXT NOT NULL,
        plugin TEXT NOT NULL,
        tool TEXT NOT NULL,
        success INTEGER NOT NULL,
        error_code TEXT,
        duration_ms REAL NOT NULL
      );
      CREATE INDEX audit_plugin_at ON audit (plugin, at);
    `,
  },
];

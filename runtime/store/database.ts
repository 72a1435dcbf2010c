import { DatabaseSync } from "node:sqlite";
import { CortexError } from "../errors.ts";
import { type Migration, MIGRATIONS } from "./migrations.ts";
import { toStoreError } from "./sqlite_errors.ts";

/** Options for {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** How long to wait for another process's lock, in ms (default 2000). */
  busyTimeoutMs?: number;
  /** Migrations to apply (default {@link MIGRATIONS}). */
  migrations?: readonly Migration[];
}

/**
 * Opens (creating if needed) the runtime's database: WAL mode, foreign keys
 * on, every pending migration applied in its own transaction.
 *
 * @throws {CortexError} `store_locked`, `store_readonly` or `store_failed`.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): DatabaseSync {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
  } catch (error) {
    throw toStoreError(error, `opening ${path}`);
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 2000))}`);
    db.exec("PRAGMA foreign_keys = ON");
    const mode = db.prepare("PRAGMA journal_mode = WAL").get() as { journal_mode?: string };
    if (mode?.journal_mode !== "wal" && path !== ":memory:") {
      throw new CortexError("store_failed", `the database could not switch to WAL mode`);
    }
    db.exec("PRAGMA synchronous = NORMAL");
    migrate(db, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw toStoreError(error, `opening ${path}`);
  }
}

/** The schema version a database is at (0 for a new one). */
export function schemaVersion(db: DatabaseSync): number {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const row = db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as {
    v: number | null;
  };
  return row.v ?? 0;
}

function migrate(db: DatabaseSync, migrations: readonly Migration[]): void {
  const current = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new CortexError(
      "store_failed",
      `the database is at schema version ${current}, newer than this runtime knows (${latest}); upgrade cortex`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(migration.sql);
      db.prepare(
        "INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)",
      ).run(migration.version, migration.description, new Date().toISOString());
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
}

/** Runs `fn` in an immediate transaction, rolling back if it throws. */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    throw toStoreError(error, "starting a transaction");
  }
  try {
    const result = fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // The transaction may already be gone (for example after SQLITE_FULL); the original error matters.
    }
    throw error;
  }
}

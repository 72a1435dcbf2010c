import type { DatabaseSync, StatementSync } from "node:sqlite";
import { CortexError } from "../errors.ts";
import { toStoreError } from "./sqlite_errors.ts";

/** A plugin's status, as documented. */
export type PluginStatus = "unloaded" | "loading" | "active" | "unloading" | "error";

/** A plugin's trust level, as documented. */
export type TrustLevel = "untrusted" | "signed" | "trusted";

/** One row of the `plugins` table: the documented columns plus three of ours. */
export interface PluginRow {
  /** Primary key: the plugin's name. */
  name: string;
  /** Installed version. */
  version: string;
  /** Plugin kind (esm, mcp, wasm, module). */
  type: string;
  /** Execution target (deno, wasm, process). */
  runtime: string;
  /** Entry point path or URL, as in the manifest. */
  entry: string;
  /** The full manifest as JSON. */
  manifest_json: string;
  /** Declared capabilities, comma-separated. */
  declared_permissions: string;
  /** Capabilities after the person's overrides, comma-separated. */
  effective_permissions: string;
  /** Author. */
  author: string | null;
  /** Description. */
  description: string | null;
  /** SPDX license. */
  license: string | null;
  /** Where it was installed from. */
  source: string | null;
  /** SHA-256 of the entry file. */
  integrity_hash: string;
  /** 1 when enabled, 0 when disabled. */
  enabled: number;
  /** Current status. */
  status: PluginStatus;
  /** Trust level. */
  trust_level: TrustLevel;
  /** Last error when status is error. */
  error_message: string | null;
  /** Number of load attempts. */
  load_attempts: number;
  /** ISO time of install. */
  installed_at: string;
  /** ISO time of the last change. */
  updated_at: string;
  /** ISO time of the last load attempt. */
  last_load_at: string | null;
  /** Dependencies and peerDependencies as JSON. */
  dependencies_json: string | null;
  /** The manifest's ui.settings as JSON. */
  config_schema_json: string | null;
  /** SHA-256 over the whole installed tree (ours). */
  tree_hash: string;
  /** Whether `onInstall` has run (ours). */
  install_hook_ran: number;
  /** Per-plugin call and hook deadline in ms, null for the runtime default (ours). */
  timeout_ms: number | null;
}

const COLUMNS: readonly (keyof PluginRow)[] = [
  "name",
  "version",
  "type",
  "runtime",
  "entry",
  "manifest_json",
  "declared_permissions",
  "effective_permissions",
  "author",
  "description",
  "license",
  "source",
  "integrity_hash",
  "enabled",
  "status",
  "trust_level",
  "error_message",
  "load_attempts",
  "installed_at",
  "updated_at",
  "last_load_at",
  "dependencies_json",
  "config_schema_json",
  "tree_hash",
  "install_hook_ran",
  "timeout_ms",
];

/** The columns a status change may set. */
export interface StatusChange {
  /** The new status. */
  status: PluginStatus;
  /** The error, or null to clear it. */
  error_message?: string | null;
  /** The new attempt count. */
  load_attempts?: number;
  /** When the load was attempted. */
  last_load_at?: string | null;
}

/** Reads and writes the `plugins` table. */
export class PluginsTable {
  #db: DatabaseSync;
  #get: StatementSync;
  #list: StatementSync;

  /**
   * Creates it.
   * @param db An open, migrated database.
   */
  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#get = db.prepare("SELECT * FROM plugins WHERE name = ?");
    this.#list = db.prepare("SELECT * FROM plugins ORDER BY name");
  }

  /** The row for `name`, or undefined. */
  get(name: string): PluginRow | undefined {
    try {
      return this.#get.get(name) as PluginRow | undefined;
    } catch (error) {
      throw toStoreError(error, `reading plugin ${name}`);
    }
  }

  /** Every row, by name. */
  list(): PluginRow[] {
    try {
      return this.#list.all() as unknown as PluginRow[];
    } catch (error) {
      throw toStoreError(error, "listing plugins");
    }
  }

  /** Inserts a new row. */
  insert(row: PluginRow): void {
    const placeholders = COLUMNS.map(() => "?").join(", ");
    try {
      this.#db.prepare(`INSERT INTO plugins (${COLUMNS.join(", ")}) VALUES (${placeholders})`)
        .run(...COLUMNS.map((c) => row[c]));
    } catch (error) {
      if (String((error as Error)?.message).includes("UNIQUE constraint failed: plugins.name")) {
        throw new CortexError("plugin_exists", `a plugin named ${row.name} is already installed`);
      }
      throw toStoreError(error, `recording plugin ${row.name}`);
    }
  }

  /** Updates some columns of a row, and `updated_at`. */
  update(name: string, changes: Partial<Omit<PluginRow, "name">>): void {
    const keys = Object.keys(changes).filter((k) => (COLUMNS as string[]).includes(k)) as (
      keyof PluginRow
    )[];
    const all = { ...changes, updated_at: changes.updated_at ?? new Date().toISOString() };
    if (!keys.includes("updated_at")) keys.push("updated_at");
    const set = keys.map((k) => `${k} = ?`).join(", ");
    try {
      this.#db.prepare(`UPDATE plugins SET ${set} WHERE name = ?`)
        .run(...keys.map((k) => (all as Record<string, string | number | null>)[k] ?? null), name);
    } catch (error) {
      throw toStoreError(error, `updating plugin ${name}`);
    }
  }

  /** Records a status transition. */
  setStatus(name: string, change: StatusChange): void {
    this.update(name, change);
  }

  /** Deletes a row (state and overrides go with it). */
  delete(name: string): void {
    try {
      this.#db.prepare("DELETE FROM plugins WHERE name = ?").run(name);
    } catch (error) {
      throw toStoreError(error, `removing plugin ${name}`);
    }
  }
}

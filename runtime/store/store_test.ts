import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { CortexError } from "../errors.ts";
import { entriesOf, Harness, manifestFor } from "../../test/support/harness.ts";
import { type Migration, MIGRATIONS, openDatabase, type PluginRow, schemaVersion, Store } from "./mod.ts";

/** The documented columns of the plugins table, in order, then the three of ours. */
const DOCUMENTED_COLUMNS = [
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
];
const OUR_COLUMNS = ["tree_hash", "install_hook_ran", "timeout_ms"];

function rowFor(name: string): PluginRow {
  const now = new Date().toISOString();
  return {
    name,
    version: "1.0.0",
    type: "esm",
    runtime: "deno",
    entry: "mod.ts",
    manifest_json: JSON.stringify(manifestFor(name)),
    declared_permissions: "tools",
    effective_permissions: "tools",
    author: null,
    description: "a row",
    license: null,
    source: null,
    integrity_hash: "0".repeat(64),
    enabled: 1,
    status: "unloaded",
    trust_level: "untrusted",
    error_message: null,
    load_attempts: 0,
    installed_at: now,
    updated_at: now,
    last_load_at: null,
    dependencies_json: null,
    config_schema_json: null,
    tree_hash: "0".repeat(64),
    install_hook_ran: 0,
    timeout_ms: null,
  };
}

async function withDbFolder(fn: (dir: string, path: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cortex-store-" });
  try {
    await fn(dir, join(dir, "cortex.db"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function refusal(fn: () => unknown): CortexError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof CortexError, `expected a CortexError, got ${error}`);
    return error;
  }
  assert.fail("expected a refusal");
}

async function asyncRefusal(promise: Promise<unknown>): Promise<CortexError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CortexError, `expected a CortexError, got ${error}`);
    return error;
  }
  assert.fail("expected a refusal");
}

/**
 * Makes `path` unwritable for this process. `chmod` is enough for a normal
 * user; root ignores file modes, so when the path is still writable after
 * `chmod` the immutable attribute (`chattr +i`, which binds root too) is set
 * as well. Returns the undo function.
 */
async function makeReadOnly(path: string): Promise<() => Promise<void>> {
  const info = await Deno.stat(path);
  const mode = info.mode! & 0o7777;
  await Deno.chmod(path, info.isDirectory ? 0o555 : 0o444);
  let immutable = false;
  if (await writable(path, info.isDirectory)) {
    const out = await new Deno.Command("chattr", { args: ["+i", path], stderr: "piped" }).output();
    assert.ok(out.success, `cannot make ${path} read-only: ${new TextDecoder().decode(out.stderr)}`);
    immutable = true;
    assert.ok(!(await writable(path, info.isDirectory)), `${path} is still writable`);
  }
  return async () => {
    if (immutable) await new Deno.Command("chattr", { args: ["-i", path] }).output();
    await Deno.chmod(path, mode);
  };
}

async function writable(path: string, isDirectory: boolean): Promise<boolean> {
  try {
    if (isDirectory) {
      const probe = join(path, ".probe");
      await Deno.writeTextFile(probe, "");
      await Deno.remove(probe);
    } else {
      (await Deno.open(path, { write: true })).close();
    }
    return true;
  } catch {
    return false;
  }
}

/** A second connection that holds the write lock, like another cortex process mid-transaction. */
function holdLock(path: string): DatabaseSync {
  const other = new DatabaseSync(path);
  other.exec("BEGIN EXCLUSIVE");
  other.exec(
    "INSERT INTO audit (at, caller, plugin, tool, success, duration_ms) VALUES ('t', 'person', 'p', 'p.t', 1, 0)",
  );
  return other;
}

Deno.test("store: a new database gets every migration, each recorded with its version", async () => {
  await withDbFolder((_dir, path) => {
    const store = new Store(path);
    try {
      const rows = store.db.prepare("SELECT version, description FROM schema_migrations ORDER BY version")
        .all() as { version: number; description: string }[];
      assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version));
      assert.deepEqual(rows.map((r) => r.description), MIGRATIONS.map((m) => m.description));
      assert.equal(schemaVersion(store.db), MIGRATIONS.at(-1)!.version);
    } finally {
      store.close();
    }
  });
});

Deno.test("store: reopening applies nothing twice and keeps the data", async () => {
  await withDbFolder((_dir, path) => {
    const first = new Store(path);
    first.plugins.insert(rowFor("kept"));
    first.state.set("kept", "k", "v");
    first.close();
    const second = new Store(path);
    try {
      const count = second.db.prepare("SELECT COUNT(*) AS n FROM schema_migrations").get() as { n: number };
      assert.equal(count.n, MIGRATIONS.length);
      assert.equal(second.plugins.get("kept")?.version, "1.0.0");
      assert.equal(second.state.get("kept", "k"), "v");
    } finally {
      second.close();
    }
  });
});

Deno.test("store: a migration that fails is rolled back whole and the version stays", async () => {
  await withDbFolder((_dir, path) => {
    const broken: Migration[] = [
      ...MIGRATIONS,
      {
        version: 999,
        description: "half a change",
        sql: "CREATE TABLE half (x INTEGER); SELECT * FROM no_such_table;",
      },
    ];
    const e = refusal(() => openDatabase(path, { migrations: broken }));
    assert.equal(e.code, "store_failed");
    const store = new Store(path);
    try {
      assert.equal(schemaVersion(store.db), MIGRATIONS.at(-1)!.version);
      const half = store.db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get();
      assert.equal(half, undefined);
    } finally {
      store.close();
    }
  });
});

Deno.test("store: a database newer than this runtime is refused, not downgraded", async () => {
  await withDbFolder((_dir, path) => {
    const newer: Migration[] = [...MIGRATIONS, {
      version: 500,
      description: "from the future",
      sql: "SELECT 1;",
    }];
    openDatabase(path, { migrations: newer }).close();
    const e = refusal(() => new Store(path));
    assert.equal(e.code, "store_failed");
    assert.match(e.message, /schema version 500, newer than this runtime knows/);
  });
});

Deno.test("store: the database is in WAL mode with foreign keys on", async () => {
  await withDbFolder(async (dir, path) => {
    const store = new Store(path);
    try {
      store.plugins.insert(rowFor("wal-check"));
      assert.deepEqual({ ...store.db.prepare("PRAGMA journal_mode").get() }, { journal_mode: "wal" });
      assert.deepEqual({ ...store.db.prepare("PRAGMA foreign_keys").get() }, { foreign_keys: 1 });
      assert.ok((await entriesOf(dir)).includes("cortex.db-wal"));
    } finally {
      store.close();
    }
    const raw = new DatabaseSync(path);
    try {
      assert.deepEqual({ ...raw.prepare("PRAGMA journal_mode").get() }, { journal_mode: "wal" });
    } finally {
      raw.close();
    }
  });
});

Deno.test("store: the plugins table has exactly the documented columns plus ours", async () => {
  await withDbFolder((_dir, path) => {
    const store = new Store(path);
    try {
      const columns = store.db.prepare("PRAGMA table_info(plugins)").all() as { name: string; pk: number }[];
      assert.deepEqual(columns.map((c) => c.name), [...DOCUMENTED_COLUMNS, ...OUR_COLUMNS]);
      assert.deepEqual(columns.filter((c) => c.pk).map((c) => c.name), ["name"]);
    } finally {
      store.close();
    }
  });
});

Deno.test("store: removing a plugin's row removes its state and permission overrides", async () => {
  await withDbFolder((_dir, path) => {
    const store = new Store(path);
    try {
      store.plugins.insert(rowFor("short-lived"));
      store.state.set("short-lived", "k", "v");
      store.overrides.set("short-lived", { capability: "tools", decision: "deny", scope: [] });
      store.plugins.delete("short-lived");
      assert.deepEqual(store.state.list("short-lived"), {});
      assert.deepEqual(store.overrides.list("short-lived"), []);
    } finally {
      store.close();
    }
  });
});

Deno.test("store: a write while another connection holds the lock is store_locked", async () => {
  await withDbFolder((_dir, path) => {
    const store = new Store(path, { busyTimeoutMs: 20 });
    store.plugins.insert(rowFor("busy"));
    const other = holdLock(path);
    try {
      const e = refusal(() => store.state.set("busy", "k", "v"));
      assert.equal(e.code, "store_locked");
      assert.match(e.message, /locked by another process/);
      assert.equal(refusal(() => store.plugins.update("busy", { enabled: 0 })).code, "store_locked");
      assert.equal(store.plugins.get("busy")?.enabled, 1, "reads still work while locked");
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    try {
      store.state.set("busy", "k", "v");
      assert.equal(store.state.get("busy", "k"), "v");
    } finally {
      store.close();
    }
  });
});

Deno.test("store: opening a new database while another connection holds the lock is store_locked", async () => {
  await withDbFolder((_dir, path) => {
    const other = new DatabaseSync(path);
    other.exec("PRAGMA journal_mode = WAL");
    other.exec("CREATE TABLE squatter (x INTEGER)");
    other.exec("BEGIN EXCLUSIVE");
    other.exec("INSERT INTO squatter VALUES (1)");
    try {
      assert.equal(refusal(() => new Store(path, { busyTimeoutMs: 20 })).code, "store_locked");
    } finally {
      other.exec("COMMIT");
      other.close();
    }
  });
});

// BUG: inTransaction (store/database.ts) lets the raw "database is locked" error of
// BEGIN IMMEDIATE escape, so an install while another process writes reports `internal`.
Deno.test("runtime: installing while another process holds the lock is store_locked and leaves nothing", async () => {
  await using h = await Harness.open({ busyTimeoutMs: 20 });
  const dir = await h.plugin(manifestFor("locked-out"), "export const tools = [];");
  const other = holdLock(h.runtime.home.database);
  try {
    const e = await asyncRefusal(h.runtime.install(dir, { trust: "trusted" }));
    assert.equal(e.code, "store_locked", e.message);
  } finally {
    other.exec("COMMIT");
    other.close();
  }
  assert.deepEqual(h.runtime.plugins(), []);
  assert.deepEqual(await entriesOf(h.runtime.home.pluginsDir), []);
  assert.deepEqual(await entriesOf(h.runtime.home.stagingDir), []);
});

Deno.test("store: writing to a read-only database file is store_readonly", async () => {
  await withDbFolder(async (_dir, path) => {
    const setup = new Store(path);
    setup.plugins.insert(rowFor("frozen"));
    setup.close();
    const undo = await makeReadOnly(path);
    try {
      const store = new Store(path, { busyTimeoutMs: 20 });
      try {
        const e = refusal(() => store.state.set("frozen", "k", "v"));
        assert.equal(e.code, "store_readonly", e.message);
        assert.match(e.message, /read-only/);
        assert.equal(store.plugins.get("frozen")?.name, "frozen", "reads still work");
      } finally {
        store.close();
      }
    } finally {
      await undo();
    }
  });
});

Deno.test("store: creating a database in a read-only folder is store_readonly", async () => {
  await withDbFolder(async (dir, path) => {
    const undo = await makeReadOnly(dir);
    try {
      const e = refusal(() => new Store(path));
      assert.equal(e.code, "store_readonly", e.message);
      assert.match(e.message, /writable/);
    } finally {
      await undo();
    }
  });
});

Deno.test("runtime: installing on a read-only database is store_readonly and leaves nothing", async () => {
  await using h = await Harness.open({ busyTimeoutMs: 20 });
  const dir = await h.plugin(manifestFor("read-only-home"), "export const tools = [];");
  let undo = () => Promise.resolve();
  await h.reopen(async () => {
    undo = await makeReadOnly(h.runtime.home.database);
  });
  try {
    const e = await asyncRefusal(h.runtime.install(dir, { trust: "trusted" }));
    assert.equal(e.code, "store_readonly", e.message);
  } finally {
    await undo();
  }
  assert.deepEqual(h.runtime.plugins(), []);
  assert.deepEqual(await entriesOf(h.runtime.home.pluginsDir), []);
});

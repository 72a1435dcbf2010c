import type { Runtime } from "../runtime/runtime.ts";
import type { ConfigDocument } from "../runtime/config_file.ts";

/**
 * Keeps a long-running runtime in step with changes other processes (the
 * CLI) make to the store and to config.json: the store is the source of
 * truth, so what the table says is what runs.
 */
export class Reconciler {
  #runtime: Runtime;
  #dataVersion = -1;
  #seen = new Map<string, string>();
  #loadedWith = new Map<string, string>();
  #configMtime = 0;
  #config: ConfigDocument = {};
  #running = false;

  /** @param runtime The daemon's runtime. */
  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** Records the current state as seen (call after the first load). */
  async prime(): Promise<void> {
    this.#dataVersion = this.#readDataVersion();
    for (const row of this.#runtime.plugins()) {
      this.#seen.set(row.name, row.updated_at);
      if (this.#runtime.isActive(row.name)) this.#loadedWith.set(row.name, this.#grantsOf(row.name));
    }
    this.#configMtime = await this.#mtime();
    this.#config = await this.#runtime.config.read().catch(() => ({}));
  }

  /** Applies whatever changed since the last look. */
  async tick(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      await this.#reconcilePlugins();
      await this.#reconcileConfig();
    } finally {
      this.#running = false;
    }
  }

  /** What a plugin's boundary is built from: trust, deadline, tree and the person's overrides. */
  #grantsOf(name: string): string {
    const row = this.#runtime.plugin(name);
    return JSON.stringify([
      row.trust_level,
      row.timeout_ms,
      row.tree_hash,
      row.effective_permissions,
      this.#runtime.store.overrides.list(name),
    ]);
  }

  #readDataVersion(): number {
    const row = this.#runtime.store.db.prepare("PRAGMA data_version").get() as { data_version: number };
    return row.data_version;
  }

  async #mtime(): Promise<number> {
    try {
      return (await Deno.stat(this.#runtime.home.config)).mtime?.getTime() ?? 0;
    } catch {
      return 0;
    }
  }

  async #reconcilePlugins(): Promise<void> {
    const version = this.#readDataVersion();
    if (version === this.#dataVersion) return;
    this.#dataVersion = version;
    const rows = this.#runtime.plugins();
    const names = new Set(rows.map((r) => r.name));
    for (const name of [...this.#seen.keys()]) {
      if (!names.has(name)) {
        this.#seen.delete(name);
        await this.#runtime.unload(name).catch(() => {});
      }
    }
    for (const row of rows) {
      const changed = this.#seen.get(row.name) !== row.updated_at;
      this.#seen.set(row.name, row.updated_at);
      if (!changed) continue;
      const active = this.#runtime.isActive(row.name);
      const grants = this.#grantsOf(row.name);
      if (!row.enabled && active) {
        await this.#runtime.unload(row.name).catch(() => {});
      } else if (row.enabled && active && this.#loadedWith.get(row.name) !== grants) {
        // Permissions, trust or deadline changed elsewhere: the boundary must be rebuilt with them.
        await this.#runtime.unload(row.name).catch(() => {});
        await this.#runtime.load(row.name).catch(() => {});
      } else if (row.enabled && !active && row.status !== "loading") {
        await this.#runtime.load(row.name).catch(() => {});
      }
      if (this.#runtime.isActive(row.name)) this.#loadedWith.set(row.name, grants);
      const after = this.#runtime.plugin(row.name);
      this.#seen.set(row.name, after.updated_at);
    }
    this.#dataVersion = this.#readDataVersion();
  }

  async #reconcileConfig(): Promise<void> {
    const mtime = await this.#mtime();
    if (mtime === this.#configMtime) return;
    this.#configMtime = mtime;
    let next: ConfigDocument;
    try {
      next = await this.#runtime.config.read();
    } catch {
      return;
    }
    const before = this.#config.plugins ?? {};
    const after = next.plugins ?? {};
    this.#config = next;
    for (const [plugin, section] of Object.entries(after)) {
      if (!this.#runtime.isActive(plugin)) continue;
      for (const [key, value] of Object.entries(section ?? {})) {
        if (JSON.stringify(before[plugin]?.[key]) !== JSON.stringify(value)) {
          await this.#runtime.configChanged(plugin, key, value);
        }
      }
    }
  }
}

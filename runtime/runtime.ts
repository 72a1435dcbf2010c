/**
 * The runtime: one store, one registry, one event bus, one middleware chain
 * and one call path, shared by every kind of plugin and every contract.
 *
 * @module
 */
import { join } from "node:path";
import type { EventPayloads, EventType } from "../plugin_api/types.ts";
import { EVENT_TYPES } from "../plugin_api/types.ts";
import { globalEventBus } from "../plugin_api/global_event_bus.ts";
import { CAPABILITIES } from "../manifest/capabilities.ts";
import type { Manifest } from "../manifest/schema.ts";
import { type CallOptions, CallPath, type CallResult } from "./call_path.ts";
import { ConfigFile } from "./config_file.ts";
import { removeIfExists } from "./copy_tree.ts";
import { dependencyOrder } from "./dependencies.ts";
import { withDeadline } from "./deadline.ts";
import { CortexError, HookError, toCortexError } from "./errors.ts";
import type { EventBus } from "./event_bus.ts";
import { defaultHome, ensureHome, type HomeLayout, homeLayout } from "./home.ts";
import { commitInstall, type InstallPlan, planInstall, type SignatureVerifier } from "./installer.ts";
import type { Loader } from "./loader.ts";
import { MiddlewareChain } from "./middleware.ts";
import { PluginLifecycle, storedManifest } from "./plugin_lifecycle.ts";
import { createPluginLogger, pluginLogPath } from "./plugin_logger.ts";
import { secretKeys } from "./plugin_services.ts";
import { effectiveCapabilities } from "./policy.ts";
import {
  inTransaction,
  type PermissionOverride,
  type PluginRow,
  Store,
  type TrustLevel,
} from "./store/mod.ts";
import { type ToolRecord, ToolRegistry } from "./tool_registry.ts";
import { createSignatureVerifier } from "../signing/mod.ts";

/** Loaders by the key {@link Runtime} selects them with. */
export interface RuntimeLoaders {
  /** Trusted ESM, in process. */
  esmTrusted?: Loader;
  /** Untrusted or signed ESM, in a sandbox. */
  esmSandboxed?: Loader;
  /** WebAssembly plugins. */
  wasm?: Loader;
  /** MCP servers. */
  mcp?: Loader;
  /** CortexFS external modules. */
  module?: Loader;
}

/** Options for {@link Runtime.open}. */
export interface RuntimeOptions {
  /** The home folder (default `CORTEX_HOME`, else `~/.cortex`). */
  home?: string;
  /** The loaders to use. */
  loaders?: RuntimeLoaders;
  /** The event bus (default the process-wide `globalEventBus`). */
  events?: EventBus;
  /** Default deadline for calls and hooks, in ms (default 30000). */
  defaultTimeoutMs?: number;
  /** How long to wait on another process's database lock, in ms (default 2000). */
  busyTimeoutMs?: number;
  /** Checks signatures for `signed` installs (default: Ed25519 against `<home>/trusted_keys.json`). */
  verifySignature?: SignatureVerifier;
  /** Receives each plugin log line as it is written. */
  echoLog?: (line: string) => void;
  /** How many recent events to keep for {@link Runtime.recentEvents} (default 200). */
  recentEventLimit?: number;
}

/** A recorded event. */
export interface RecordedEvent {
  /** Sequence number, increasing. */
  seq: number;
  /** ISO time. */
  at: string;
  /** Event type. */
  type: string;
  /** Payload. */
  payload: unknown;
}

/** Options for {@link Runtime.install}. */
export interface InstallOptions {
  /** Trust level (default `untrusted`). `trusted` only ever by the person's explicit choice. */
  trust?: TrustLevel;
  /** Load the plugin after installing it (default true). */
  load?: boolean;
}

/** The outcome of an install. */
export interface InstallResult {
  /** The new row. */
  row: PluginRow;
  /** Why it did not load, when it did not (the install itself stands). */
  loadError?: CortexError;
}

/**
 * The plugin runtime.
 *
 * @example
 * ```ts ignore
 * import { Runtime } from "./runtime.ts";
 * const runtime = await Runtime.open({ home: "/tmp/cortex-home" });
 * await runtime.install("./examples/hello", { trust: "trusted" });
 * const result = await runtime.call("hello.greet", { name: "Ada" }, { caller: "person" });
 * await runtime.close();
 * ```
 */
export class Runtime {
  /** The home folder layout. */
  readonly home: HomeLayout;
  /** The store. */
  readonly store: Store;
  /** Registered tools. */
  readonly registry: ToolRegistry = new ToolRegistry();
  /** The event bus. */
  readonly events: EventBus;
  /** The middleware chain. */
  readonly middleware: MiddlewareChain = new MiddlewareChain();
  /** `<home>/config.json`. */
  readonly config: ConfigFile;
  #lifecycle: PluginLifecycle;
  #callPath: CallPath;
  #loaders: RuntimeLoaders;
  #verifySignature?: SignatureVerifier;
  #recent: RecordedEvent[] = [];
  #seq = 0;
  #recentLimit: number;
  #stopRecording: () => void;
  #closed = false;

  private constructor(home: HomeLayout, store: Store, options: RuntimeOptions) {
    this.home = home;
    this.store = store;
    this.events = options.events ?? globalEventBus;
    this.config = new ConfigFile(home.config);
    this.#loaders = options.loaders ?? {};
    this.#verifySignature = options.verifySignature ?? createSignatureVerifier(home.trustedKeys);
    this.#recentLimit = options.recentEventLimit ?? 200;
    this.#lifecycle = new PluginLifecycle({
      store,
      home,
      config: this.config,
      registry: this.registry,
      middleware: this.middleware,
      events: this.events,
      selectLoader: (row, manifest) => this.#selectLoader(row, manifest),
      defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000,
      echoLog: options.echoLog,
      onConfigSet: (plugin, key, value) => this.configChanged(plugin, key, value),
      callTool: (tool, args, options) => this.call(tool, args, options),
    });
    this.#callPath = new CallPath({
      registry: this.registry,
      middleware: this.middleware,
      events: this.events,
      audit: store.audit,
      ownerState: (owner) => {
        const entry = this.#lifecycle.active.get(owner);
        if (entry?.active) {
          return { active: true, capabilities: entry.capabilities, timeoutMs: entry.timeoutMs };
        }
        return {
          active: false,
          capabilities: new Set(),
          timeoutMs: 0,
          reason: new CortexError("plugin_not_active", `plugin ${owner} is not active`),
        };
      },
      explainMissing: (qualifiedName) => this.#explainMissing(qualifiedName),
      onMiddlewareError: (plugin, error) =>
        this.#lifecycle.active.get(plugin)?.services.logger.error(`postMiddleware failed: ${error.message}`),
    });
    this.#stopRecording = this.events.onAny((type, payload) => {
      this.#recent.push({ seq: ++this.#seq, at: new Date().toISOString(), type, payload });
      if (this.#recent.length > this.#recentLimit) this.#recent.shift();
    });
  }

  /** Opens the runtime on a home folder, creating it if needed. Loads nothing yet. */
  static async open(options: RuntimeOptions = {}): Promise<Runtime> {
    const home = homeLayout(options.home ?? defaultHome());
    await ensureHome(home);
    const store = new Store(home.database, { busyTimeoutMs: options.busyTimeoutMs });
    return new Runtime(home, store, options);
  }

  /** Builds the install plan for a folder: what the plugin declares, before anything runs. */
  async planInstall(sourceDir: string, options: { trust?: TrustLevel } = {}): Promise<InstallPlan> {
    return await planInstall(sourceDir, { trust: options.trust ?? "untrusted", store: this.store });
  }

  /**
   * Installs the plugin in `sourceDir`. Files and row appear together; then
   * the plugin loads (running `onInstall` once). If `onInstall` or loading
   * fails the install still stands with the plugin in `error`, except for a
   * failing `onInstall`, which removes the install again.
   */
  async install(sourceDir: string | InstallPlan, options: InstallOptions = {}): Promise<InstallResult> {
    const plan = typeof sourceDir === "string" ? await this.planInstall(sourceDir, options) : sourceDir;
    const checker = this.#loaderFor(plan.manifest.kind, plan.trust);
    if (checker?.check) await checker.check(plan.manifest, plan.entryFile);
    const row = await commitInstall(plan, {
      store: this.store,
      home: this.home,
      verifySignature: this.#verifySignature,
    });
    if (options.load === false) return { row };
    try {
      await this.#lifecycle.load(row.name);
    } catch (error) {
      const e = toCortexError(error);
      const after = this.store.plugins.get(row.name)!;
      if (error instanceof HookError && error.hook === "onInstall") {
        await this.#erase(row.name);
        throw new CortexError(e.code, `install of ${row.name} undone: ${e.message}`);
      }
      return { row: after, loadError: e };
    }
    return { row: this.store.plugins.get(row.name)! };
  }

  /**
   * Loads every enabled plugin in dependency order. A plugin that fails is
   * left in `error` with the reason; the others load. Returns the failures.
   */
  async loadAll(): Promise<Map<string, CortexError>> {
    const rows = this.store.plugins.list().filter((r) => r.enabled);
    const { ordered, cyclic } = dependencyOrder(rows.map((r) => ({
      name: r.name,
      dependencies: Object.keys(JSON.parse(r.dependencies_json ?? "{}").dependencies ?? {}),
    })));
    const failures = new Map<string, CortexError>();
    for (const name of cyclic) {
      const e = new CortexError("dependency_cycle", `${name} is part of a dependency cycle`);
      this.store.plugins.setStatus(name, { status: "error", error_message: `${e.code}: ${e.message}` });
      failures.set(name, e);
    }
    for (const name of ordered) {
      try {
        await this.#lifecycle.load(name);
      } catch (error) {
        failures.set(name, toCortexError(error));
      }
    }
    return failures;
  }

  /** Loads one plugin. */
  async load(name: string): Promise<void> {
    await this.#lifecycle.load(name);
  }

  /** Unloads one plugin (it stays enabled; it loads again at the next start). */
  async unload(name: string): Promise<void> {
    await this.#lifecycle.unload(name);
  }

  /** Enables and loads a plugin. The row says enabled even if the load fails. */
  async enable(name: string): Promise<PluginRow> {
    this.#row(name);
    this.store.plugins.update(name, { enabled: 1 });
    await this.#lifecycle.load(name);
    return this.#row(name);
  }

  /**
   * Only records whether a plugin is enabled, loading or unloading nothing
   * here: for a process (the CLI) while a daemon owns the running plugins and
   * follows the table.
   */
  setEnabled(name: string, enabled: boolean): PluginRow {
    this.#row(name);
    this.store.plugins.update(name, { enabled: enabled ? 1 : 0 });
    return this.#row(name);
  }

  /** Unloads and disables a plugin. */
  async disable(name: string): Promise<PluginRow> {
    this.#row(name);
    await this.#lifecycle.unload(name);
    const after = this.#row(name);
    // A hook that failed while unloading stays visible as `error`; otherwise it is simply unloaded.
    this.store.plugins.update(name, { enabled: 0, status: after.status === "error" ? "error" : "unloaded" });
    return this.#row(name);
  }

  /**
   * Removes a plugin: unloads it, runs `onUninstall` when its code can run,
   * and deletes its row, state, overrides, files, data and config section.
   */
  async remove(name: string): Promise<void> {
    this.#row(name);
    const dependents = this.store.plugins.list().filter((r) =>
      r.name !== name && Object.hasOwn(JSON.parse(r.dependencies_json ?? "{}").dependencies ?? {}, name)
    );
    if (dependents.length) {
      throw new CortexError(
        "dependents_exist",
        `cannot remove ${name}: ${dependents.map((d) => d.name).join(", ")} depend on it`,
      );
    }
    const wasActive = this.#lifecycle.active.get(name);
    if (wasActive) {
      await this.#lifecycle.callHook(wasActive, "onUninstall").catch((error) =>
        wasActive.services.logger.error(`onUninstall failed: ${toCortexError(error).message}`)
      );
      await this.#lifecycle.unload(name);
    } else {
      const failure = await this.#lifecycle.runDetachedHook(name, "onUninstall");
      if (failure) {
        createPluginLogger(this.home.logsDir, name).warn(`onUninstall did not run: ${failure.message}`);
      }
    }
    await this.#erase(name);
  }

  /** Calls a tool through the one call path. */
  async call(toolName: string, args: Record<string, unknown>, options: CallOptions): Promise<CallResult> {
    return await this.#callPath.call(toolName, args, options);
  }

  /** Every registered tool (of active plugins), or one plugin's. */
  tools(plugin?: string): ToolRecord[] {
    return this.registry.list(plugin);
  }

  /** Every installed plugin's row. */
  plugins(): PluginRow[] {
    return this.store.plugins.list();
  }

  /** One plugin's row. */
  plugin(name: string): PluginRow {
    return this.#row(name);
  }

  /** A plugin's manifest as stored. */
  manifest(name: string): Manifest {
    return storedManifest(this.#row(name));
  }

  /** A plugin's permission overrides. */
  permissions(name: string): { declared: string[]; effective: string[]; overrides: PermissionOverride[] } {
    const row = this.#row(name);
    const overrides = this.store.overrides.list(name);
    const declared = row.declared_permissions ? row.declared_permissions.split(",") : [];
    return { declared, effective: effectiveCapabilities(declared, overrides), overrides };
  }

  /**
   * Sets permission overrides, the trust level and/or the deadline, then
   * reloads the plugin if it was loaded (so its boundary gets the new
   * permissions) or had failed to load. Returns why the reload failed, if it did.
   */
  async setPermissions(
    name: string,
    changes: { overrides?: PermissionOverride[]; trust?: TrustLevel; timeoutMs?: number | null },
  ): Promise<{ loadError?: CortexError }> {
    const row = this.#row(name);
    const wasActive = this.#lifecycle.active.has(name);
    for (const o of changes.overrides ?? []) {
      if (!(CAPABILITIES as readonly string[]).includes(o.capability)) {
        throw new CortexError("usage", `unknown capability "${o.capability}"`);
      }
    }
    if (changes.trust === "signed" && row.trust_level !== "signed") {
      const manifest = storedManifest(row);
      const { pluginDir } = this.#lifecycle.dirsOf(name);
      if (!this.#verifySignature) {
        throw new CortexError("signature_invalid", "signature checking is not available in this runtime");
      }
      const verdict = await this.#verifySignature({
        manifest,
        sourceDir: pluginDir,
        entryFile: undefined,
        integrityHash: row.integrity_hash,
        treeHash: row.tree_hash,
        trust: "signed",
        runsIn: "",
      });
      if (!verdict.ok) throw new CortexError("signature_invalid", verdict.reason);
    }
    inTransaction(this.store.db, () => {
      for (const o of changes.overrides ?? []) this.store.overrides.set(name, o);
      const declared = row.declared_permissions ? row.declared_permissions.split(",") : [];
      const effective = effectiveCapabilities(declared, this.store.overrides.list(name));
      this.store.plugins.update(name, {
        effective_permissions: effective.join(","),
        ...(changes.trust ? { trust_level: changes.trust } : {}),
        ...(changes.timeoutMs !== undefined ? { timeout_ms: changes.timeoutMs } : {}),
      });
    });
    // The boundary is rebuilt with the new permissions; a plugin that failed (perhaps for want
    // of this grant) gets another try. The person's decision stands either way.
    const after = this.#row(name);
    if (this.#lifecycle.active.has(name)) await this.#lifecycle.unload(name);
    if (!after.enabled || (!wasActive && after.status !== "error")) return {};
    try {
      await this.#lifecycle.load(name);
      return {};
    } catch (error) {
      return { loadError: toCortexError(error) };
    }
  }

  /** A plugin's config section over its defaults, or one key. */
  async getConfig(name: string, key?: string): Promise<unknown> {
    const row = this.#row(name);
    const services = this.#lifecycle.services(row, storedManifest(row), new Set());
    return key === undefined ? await services.config.getAll() : await services.config.get(key);
  }

  /** Sets one config key of a plugin (written atomically; `onConfigChange` and `config:change` follow). */
  async setConfig(name: string, key: string, value: unknown): Promise<void> {
    this.#row(name);
    await this.config.setKey(name, key, value);
    await this.configChanged(name, key, value);
  }

  /** The path of a plugin's log file. */
  logPath(name: string): string {
    this.#row(name);
    return pluginLogPath(this.home.logsDir, name);
  }

  /**
   * Emits one of the ten documented events; an embedding agent host reports
   * sessions, turns and model calls through it.
   */
  emit<K extends EventType>(type: K, payload: EventPayloads[K]): void {
    if (!EVENT_TYPES.includes(type)) throw new CortexError("usage", `unknown event type "${type}"`);
    this.events.emit(type, payload);
  }

  /** Recent events, oldest first, after sequence number `since`. */
  recentEvents(options: { since?: number; limit?: number } = {}): RecordedEvent[] {
    const since = options.since ?? 0;
    const limit = options.limit ?? this.#recentLimit;
    return this.#recent.filter((e) => e.seq > since).slice(-limit);
  }

  /** What a loaded plugin's boundary looks like now (process id, restarts, ...), if its loader says. */
  boundary(name: string): Record<string, unknown> | undefined {
    return this.#lifecycle.active.get(name)?.loaded.describe?.();
  }

  /** Whether a plugin is loaded and active in this process. */
  isActive(name: string): boolean {
    return this.#lifecycle.active.get(name)?.active === true;
  }

  /** Unloads every plugin (dependents first) and closes the store. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const names = [...this.#lifecycle.active.keys()].reverse();
    for (const name of names) await this.#lifecycle.unload(name).catch(() => {});
    for (const loader of new Set(Object.values(this.#loaders))) await loader?.close?.().catch(() => {});
    this.#stopRecording();
    this.store.close();
  }

  #row(name: string): PluginRow {
    const row = this.store.plugins.get(name);
    if (!row) throw new CortexError("plugin_not_found", `no plugin named ${name} is installed`);
    return row;
  }

  #explainMissing(qualifiedName: string): CortexError {
    const dot = qualifiedName.indexOf(".");
    const row = dot > 0 ? this.store.plugins.get(qualifiedName.slice(0, dot)) : undefined;
    if (row && !row.enabled) {
      return new CortexError(
        "plugin_disabled",
        `plugin ${row.name} is disabled; enable it to call its tools`,
      );
    }
    if (row && !this.isActive(row.name)) {
      const why = row.status === "error" && row.error_message ? ` (${row.error_message})` : "";
      return new CortexError("plugin_not_active", `plugin ${row.name} is not loaded${why}`);
    }
    return new CortexError("tool_not_found", `no tool named "${qualifiedName}" is registered`);
  }

  /** The loader a plugin of this kind and trust would use, if this runtime has one. */
  #loaderFor(kind: Manifest["kind"], trust: TrustLevel): Loader | undefined {
    switch (kind) {
      case "esm":
        return trust === "trusted" ? this.#loaders.esmTrusted : this.#loaders.esmSandboxed;
      case "wasm":
        return this.#loaders.wasm;
      case "mcp":
        return this.#loaders.mcp;
      case "module":
        return this.#loaders.module;
    }
  }

  #selectLoader(row: PluginRow, manifest: Manifest): Loader {
    const loader = this.#loaderFor(manifest.kind, row.trust_level);
    if (loader) return loader;
    if (manifest.kind === "esm" && row.trust_level !== "trusted") {
      throw new CortexError(
        "sandbox_unavailable",
        `plugin ${row.name} is ${row.trust_level} and must run in the Worker sandbox, which is not available; ` +
          `it stays installed but will not load (mark it trusted with 'cortex plugins permissions ${row.name} --trust trusted' only if you trust its code)`,
      );
    }
    const what = manifest.kind === "esm" ? "trusted esm" : manifest.kind;
    throw new CortexError("sandbox_unavailable", `this runtime has no loader for ${what} plugins`);
  }

  /**
   * Tells a loaded plugin (`onConfigChange`) and the bus (`config:change`)
   * that one of its config keys changed. {@link Runtime.setConfig} calls it;
   * the daemon calls it when another process wrote config.json.
   */
  async configChanged(plugin: string, key: string, value: unknown): Promise<void> {
    const entry = this.#lifecycle.active.get(plugin);
    const secret = entry ? secretKeys(entry.manifest).has(key) : false;
    this.events.emit("config:change", { key: `${plugin}.${key}`, value: secret ? "[secret]" : value });
    if (entry?.loaded.configChanged) {
      try {
        await withDeadline((signal) => entry.loaded.configChanged!(key, value, signal), entry.timeoutMs, {
          code: "hook_timeout",
          message: `onConfigChange of ${plugin} did not finish within ${entry.timeoutMs} ms`,
        });
      } catch (error) {
        const e = toCortexError(error, "hook_failed");
        entry.services.logger.error(`onConfigChange failed: ${e.message}`);
        await this.#lifecycle.unload(plugin, { status: "error", reason: `${e.code}: ${e.message}` });
      }
    }
  }

  async #erase(name: string): Promise<void> {
    const { pluginDir, dataDir } = this.#lifecycle.dirsOf(name);
    const trash = join(this.home.stagingDir, `${crypto.randomUUID()}-removed`);
    let moved = false;
    try {
      await Deno.rename(pluginDir, trash);
      moved = true;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    try {
      inTransaction(this.store.db, () => this.store.plugins.delete(name));
    } catch (error) {
      if (moved) await Deno.rename(trash, pluginDir);
      throw error;
    }
    await removeIfExists(trash);
    await removeIfExists(dataDir);
    await this.config.removeSection(name).catch(() => {});
  }
}

/**
 * Loading and unloading plugins: integrity and dependency checks at every
 * load, the lifecycle hooks with deadlines, tool, middleware and event
 * registration, and status transitions recorded in the plugins table.
 *
 * @module
 */
import { join } from "node:path";
import { isUrlEntryPoint, resolveEntryFile } from "../manifest/read_manifest.ts";
import { type Manifest, manifestSchema } from "../manifest/schema.ts";
import type { ActivePlugin } from "./active_plugin.ts";
import type { ConfigFile } from "./config_file.ts";
import { withDeadline } from "./deadline.ts";
import { CortexError, HookError, toCortexError } from "./errors.ts";
import type { EventBus } from "./event_bus.ts";
import { hashFile, hashTree } from "./hash.ts";
import type { HomeLayout } from "./home.ts";
import type { ToolCallResult } from "../plugin_api/types.ts";
import type { HookName, LoadedPlugin, LoadedTool, Loader, LoadRequest, PluginServices } from "./loader.ts";
import type { MiddlewareChain } from "./middleware.ts";
import { createPluginLogger } from "./plugin_logger.ts";
import { createConfigStore, createStateStore } from "./plugin_services.ts";
import { effectiveCapabilities } from "./policy.ts";
import type { PluginRow, Store } from "./store/mod.ts";
import { compileJsonSchemaValidator, compileParamsValidator, paramsToJsonSchema } from "./tool_schema.ts";
import { qualifyToolName, type ToolRegistry } from "./tool_registry.ts";

/** Chooses the loader for a plugin row, or explains why none may run it. */
export type LoaderSelector = (row: PluginRow, manifest: Manifest) => Loader;

/** What the lifecycle works with. */
export interface LifecycleParts {
  store: Store;
  home: HomeLayout;
  config: ConfigFile;
  registry: ToolRegistry;
  middleware: MiddlewareChain;
  events: EventBus;
  selectLoader: LoaderSelector;
  defaultTimeoutMs: number;
  echoLog?: (line: string) => void;
  /** Calls a tool through the one call path. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { caller: `module:${string}`; signal?: AbortSignal },
  ): Promise<ToolCallResult & { errorCode?: string }>;
  /** Notifies the runtime that a plugin's config changed (for `config:change`). */
  onConfigSet(plugin: string, key: string, value: unknown): Promise<void>;
}

/** Parses a stored manifest (it was valid at install; a bad one is reported, not trusted). */
export function storedManifest(row: PluginRow): Manifest {
  const parsed = manifestSchema.safeParse(JSON.parse(row.manifest_json));
  if (!parsed.success) {
    throw new CortexError("manifest_invalid", `the stored manifest of ${row.name} no longer validates`);
  }
  return parsed.data;
}

/** Loads and unloads plugins in this process. */
export class PluginLifecycle {
  #p: LifecycleParts;
  /** Plugins loaded in this process, by name. */
  readonly active: Map<string, ActivePlugin> = new Map();

  /** @param parts What the lifecycle works with. */
  constructor(parts: LifecycleParts) {
    this.#p = parts;
  }

  /** The deadline for a plugin's calls and hooks. */
  timeoutFor(row: PluginRow, manifest: Manifest): number {
    return row.timeout_ms ?? manifest.limits?.timeoutMs ?? this.#p.defaultTimeoutMs;
  }

  /** The plugin's code and data folders. */
  dirsOf(name: string): { pluginDir: string; dataDir: string } {
    return {
      pluginDir: join(this.#p.home.pluginsDir, name),
      dataDir: join(this.#p.home.pluginDataDir, name),
    };
  }

  /** Builds a plugin's host services. */
  services(row: PluginRow, manifest: Manifest, capabilities: ReadonlySet<string>): PluginServices {
    const { pluginDir, dataDir } = this.dirsOf(row.name);
    const p = this.#p;
    const name = row.name;
    return {
      pluginId: name,
      pluginDir,
      dataDir,
      state: createStateStore(p.store.state, name),
      config: createConfigStore(p.config, manifest, (key, value) => p.onConfigSet(name, key, value)),
      logger: createPluginLogger(p.home.logsDir, name, { echo: p.echoLog }),
      registerTool: (tool) => this.#registerTool(name, manifest, capabilities, tool),
      unregisterTool: (toolName) => {
        p.registry.unregister(name, String(toolName));
      },
      publishEvent: (event, payload) => p.events.emit(`module:${name}:${event}`, payload),
      callTool: (tool, args, options) =>
        p.callTool(tool, args, { caller: `module:${name}`, signal: options?.signal }),
      subscribe: (type, handler) => {
        if (!capabilities.has("events:listener")) {
          throw new CortexError(
            "permission_denied",
            `plugin ${name} subscribed to "${type}" without the "events:listener" capability`,
          );
        }
        return p.events.on(type, handler);
      },
    };
  }

  /**
   * Loads a plugin: checks, imports through its loader, runs `onInstall`
   * (once ever), `onLoad`, registers its tools, middleware and events, and
   * runs `onActivate`. Any failure leaves it in `error` with the reason.
   */
  async load(name: string): Promise<void> {
    const p = this.#p;
    if (this.active.has(name)) return;
    const row = p.store.plugins.get(name);
    if (!row) throw new CortexError("plugin_not_found", `no plugin named ${name} is installed`);
    if (!row.enabled) throw new CortexError("plugin_disabled", `plugin ${name} is disabled`);
    p.store.plugins.setStatus(name, {
      status: "loading",
      load_attempts: row.load_attempts + 1,
      last_load_at: new Date().toISOString(),
      error_message: null,
    });
    let entry: ActivePlugin | undefined;
    try {
      const manifest = storedManifest(row);
      this.#checkDependenciesActive(manifest);
      const request = await this.#request(row, manifest, {
        onCrash: (reason, options) => this.#crashed(name, reason, options?.disable === true),
        onStatus: (status, message) => this.#statusFromLoader(name, status, message),
      });
      const { services, timeoutMs } = request;
      const capabilities = new Set(request.capabilities);
      const loaded = await this.#bringUp(p.selectLoader(row, manifest), request);
      entry = { name, manifest, loaded, services, capabilities, timeoutMs, unsubscribe: [], active: false };
      this.active.set(name, entry);
      if (!row.install_hook_ran) {
        await this.callHook(entry, "onInstall");
        p.store.plugins.update(name, { install_hook_ran: 1 });
      }
      await this.callHook(entry, "onLoad");
      for (const tool of loaded.tools) this.#registerTool(name, manifest, capabilities, tool);
      p.middleware.set({
        plugin: name,
        loaded,
        timeoutMs,
        pre: capabilities.has("middleware:pre") && loaded.preMiddleware !== undefined,
        post: capabilities.has("middleware:post") && loaded.postMiddleware !== undefined,
      });
      if (loaded.deliverEvent && capabilities.has("events:listener")) {
        for (const type of manifest.events ?? []) {
          entry.unsubscribe.push(p.events.on(type, (payload) => loaded.deliverEvent!(type, payload)));
        }
      }
      await this.callHook(entry, "onActivate");
      entry.active = true;
      p.store.plugins.setStatus(name, { status: "active", error_message: null });
    } catch (error) {
      const e = toCortexError(error, "hook_failed");
      await this.#teardown(name, entry?.loaded);
      p.store.plugins.setStatus(name, { status: "error", error_message: `${e.code}: ${e.message}` });
      throw e;
    }
  }

  /**
   * Unloads a plugin: `onDeactivate`, unregisters everything, `onUnload`,
   * and releases its boundary. A hook that fails is recorded; the unload
   * still completes.
   */
  async unload(
    name: string,
    options: { status?: "unloaded" | "error"; reason?: string } = {},
  ): Promise<void> {
    const p = this.#p;
    const entry = this.active.get(name);
    if (!entry) return;
    if (p.store.plugins.get(name)) p.store.plugins.setStatus(name, { status: "unloading" });
    const failures: string[] = [];
    for (const hook of ["onDeactivate"] as const) {
      await this.callHook(entry, hook).catch((e) => failures.push(toCortexError(e).message));
    }
    this.#detach(name);
    await this.callHook(entry, "onUnload").catch((e) => failures.push(toCortexError(e).message));
    await this.#teardown(name, entry.loaded);
    if (!p.store.plugins.get(name)) return;
    if (options.status === "error" || failures.length) {
      p.store.plugins.setStatus(name, {
        status: "error",
        error_message: options.reason ?? `hook_failed: ${failures.join("; ")}`,
      });
    } else {
      p.store.plugins.setStatus(name, { status: "unloaded", error_message: null });
    }
  }

  /**
   * Runs one hook of a plugin that is not loaded here (`onUninstall` from a
   * CLI process): brings its code up behind its loader without registering
   * anything, runs the hook, and releases it. Returns why it could not run.
   */
  async runDetachedHook(name: string, hook: HookName): Promise<CortexError | undefined> {
    const p = this.#p;
    const row = p.store.plugins.get(name);
    if (!row) return new CortexError("plugin_not_found", `no plugin named ${name} is installed`);
    let loaded: LoadedPlugin | undefined;
    try {
      const manifest = storedManifest(row);
      const request = await this.#request(row, manifest, { onCrash: () => {}, onStatus: () => {} });
      const { services, timeoutMs } = request;
      const capabilities = new Set(request.capabilities);
      loaded = await this.#bringUp(p.selectLoader(row, manifest), request);
      const entry: ActivePlugin = {
        name,
        manifest,
        loaded,
        services,
        capabilities,
        timeoutMs,
        unsubscribe: [],
        active: false,
      };
      await this.callHook(entry, hook);
      return undefined;
    } catch (error) {
      return toCortexError(error, "hook_failed");
    } finally {
      await loaded?.unload().catch(() => {});
    }
  }

  /** Runs one hook with the plugin's deadline, if the plugin has it. */
  async callHook(entry: ActivePlugin, hook: HookName): Promise<void> {
    if (!entry.loaded.hooks.has(hook)) return;
    try {
      await withDeadline((signal) => entry.loaded.callHook(hook, signal), entry.timeoutMs, {
        code: "hook_timeout",
        message: `${hook} of ${entry.name} did not finish within ${entry.timeoutMs} ms`,
      });
    } catch (error) {
      const e = toCortexError(error, "hook_failed");
      if (e.code === "hook_timeout") throw new HookError(hook, e.code, e.message, { cause: error });
      throw new HookError(hook, "hook_failed", `${hook} of ${entry.name} threw: ${e.message}`, {
        cause: error,
      });
    }
  }

  /**
   * Everything a loader is handed for one plugin: its files checked against
   * the row, its effective capabilities and the person's grants, its
   * deadline and services.
   */
  async #request(
    row: PluginRow,
    manifest: Manifest,
    callbacks: Pick<LoadRequest, "onCrash" | "onStatus">,
  ): Promise<LoadRequest> {
    const p = this.#p;
    const entryFile = await this.#checkIntegrity(row, manifest);
    const overrides = p.store.overrides.list(row.name);
    const capabilities = new Set(effectiveCapabilities(manifest.capabilities, overrides));
    const grants: Record<string, string[]> = {};
    for (const o of overrides) if (o.decision === "grant") grants[o.capability] = o.scope;
    return {
      row,
      manifest,
      entryFile,
      capabilities: [...capabilities],
      grants,
      timeoutMs: this.timeoutFor(row, manifest),
      services: this.services(row, manifest, capabilities),
      home: p.home,
      ...callbacks,
    };
  }

  /**
   * Runs a loader with the plugin's deadline. A load that finishes after the
   * deadline is released at once, so no Worker, process or connection
   * outlives the failure it was reported as.
   */
  async #bringUp(loader: Loader, request: LoadRequest): Promise<LoadedPlugin> {
    const loading = loader.load(request);
    try {
      return await withDeadline(() => loading, request.timeoutMs, {
        code: "hook_timeout",
        message: `loading ${request.row.name} did not finish within ${request.timeoutMs} ms`,
      });
    } catch (error) {
      loading.then((late) => late.unload(), () => {}).catch(() => {});
      throw error;
    }
  }

  /** Unregisters a plugin's tools, middleware and event subscriptions (each step is idempotent). */
  #detach(name: string): void {
    const p = this.#p;
    p.registry.unregisterOwner(name);
    p.middleware.remove(name);
    const entry = this.active.get(name);
    for (const off of entry?.unsubscribe.splice(0) ?? []) off();
  }

  async #teardown(name: string, loaded: LoadedPlugin | undefined): Promise<void> {
    this.#detach(name);
    this.active.delete(name);
    await loaded?.unload().catch(() => {});
  }

  #crashed(name: string, reason: string, disable: boolean): void {
    if (!this.active.has(name)) return;
    this.unload(name, { status: "error", reason })
      .then(() => {
        if (disable && this.#p.store.plugins.get(name)) this.#p.store.plugins.update(name, { enabled: 0 });
      })
      .catch(() => {});
  }

  #statusFromLoader(name: string, status: "error" | "active", message?: string): void {
    if (!this.active.get(name)?.active || !this.#p.store.plugins.get(name)) return;
    this.#p.store.plugins.setStatus(name, {
      status,
      error_message: status === "error" ? message ?? null : null,
    });
  }

  async #checkIntegrity(row: PluginRow, manifest: Manifest): Promise<string | undefined> {
    const { pluginDir } = this.dirsOf(row.name);
    if (isUrlEntryPoint(manifest.entryPoint)) return undefined;
    let entryFile: string;
    try {
      entryFile = await resolveEntryFile(pluginDir, manifest.entryPoint);
    } catch (error) {
      throw new CortexError("integrity_failed", `plugin ${row.name}: ${toCortexError(error).message}`);
    }
    if ((await hashFile(entryFile)) !== row.integrity_hash) {
      throw new CortexError(
        "integrity_failed",
        `the entry file of ${row.name} changed on disk after install; reinstall it to accept the change`,
      );
    }
    if ((await hashTree(pluginDir)) !== row.tree_hash) {
      throw new CortexError(
        "integrity_failed",
        `files of ${row.name} changed on disk after install; reinstall it to accept the change`,
      );
    }
    return entryFile;
  }

  #checkDependenciesActive(manifest: Manifest): void {
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      const entry = this.active.get(dep);
      if (!entry?.active) {
        throw new CortexError(
          "dependency_missing",
          `${manifest.name} depends on ${dep}, which is not active`,
        );
      }
    }
  }

  #registerTool(
    owner: string,
    manifest: Manifest,
    capabilities: ReadonlySet<string>,
    tool: LoadedTool,
  ): void {
    const def = tool.definition;
    if (!manifest.capabilities.includes("tools")) {
      throw new CortexError(
        "tool_undeclared",
        `plugin ${owner} offers tool "${def.name}" but does not declare the "tools" capability`,
      );
    }
    if (!capabilities.has("tools")) {
      // The person denied "tools": the plugin runs, its tools stay unregistered.
      this.active.get(owner)?.services.logger.warn(`tool "${def.name}" not registered: "tools" is denied`);
      return;
    }
    const declared = manifest.tools?.find((t) => t.name === def.name);
    // An MCP manifest's tools document its server; the MCP loader filters by them itself.
    if (manifest.kind !== "mcp" && manifest.tools && manifest.tools.length > 0 && !declared) {
      throw new CortexError(
        "tool_undeclared",
        `plugin ${owner} exports tool "${def.name}", which its manifest does not declare`,
      );
    }
    const needs = [...new Set([...(def.capabilities ?? []), ...(declared?.capabilities ?? [])])];
    const declaredCaps = new Set(manifest.capabilities);
    const beyond = needs.filter((c) => !declaredCaps.has(c));
    if (beyond.length) {
      throw new CortexError(
        "tool_undeclared",
        `tool "${def.name}" of ${owner} needs ${beyond.join(", ")}, which the manifest does not declare`,
      );
    }
    const params = declared?.params ?? def.params ?? [];
    const inputSchema = tool.inputSchema ?? paramsToJsonSchema(params);
    this.#p.registry.register({
      qualifiedName: qualifyToolName(owner, def.name),
      owner,
      name: def.name,
      description: declared?.description || def.description || "",
      inputSchema,
      validate: tool.inputSchema
        ? compileJsonSchemaValidator(tool.inputSchema)
        : compileParamsValidator(params),
      capabilities: needs,
      annotations: tool.annotations,
      invoke: tool.invoke,
    });
  }
}

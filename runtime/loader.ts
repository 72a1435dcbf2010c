/**
 * The one interface every loader implements. A loader knows how to bring a
 * plugin's code to life behind some boundary (in process, a sandbox Worker,
 * a WASM Worker, an MCP server, a module process) and how to reach it; the
 * runtime does everything else (policy, middleware, events, audit, status).
 *
 * @module
 */
import type {
  PluginConfigStore,
  PluginLogger,
  PluginStateStore,
  ToolCallResult,
  ToolDefinition,
} from "../plugin_api/types.ts";
import type { Manifest } from "../manifest/schema.ts";
import type { PluginRow } from "./store/mod.ts";
import type { HomeLayout } from "./home.ts";
import type { ToolCallContext, ToolInvoker } from "./tool_registry.ts";

/** Names of the lifecycle hooks a loader may run. */
export type HookName =
  | "onInstall"
  | "onLoad"
  | "onActivate"
  | "onDeactivate"
  | "onUnload"
  | "onUninstall";

/** A tool a loaded plugin offers, with how to run it. */
export interface LoadedTool {
  /** The definition (name, description, params, capabilities). */
  definition: ToolDefinition;
  /** A raw JSON Schema, when the tool comes with one instead of params (MCP, WASM). */
  inputSchema?: Record<string, unknown>;
  /** Extra hints, such as MCP annotations. */
  annotations?: Record<string, unknown>;
  /** Runs the tool. */
  invoke: ToolInvoker;
}

/** The host-side services of one plugin; loaders expose them across their boundary. */
export interface PluginServices {
  /** The plugin's name. */
  pluginId: string;
  /** Its code folder. */
  pluginDir: string;
  /** Its data folder. */
  dataDir: string;
  /** Its persistent state. */
  state: PluginStateStore;
  /** Its config section. */
  config: PluginConfigStore;
  /** Its logger. */
  logger: PluginLogger;
  /** Registers a tool at run time (checked against the manifest like an exported one). */
  registerTool(tool: LoadedTool): void;
  /** Unregisters one of the plugin's own tools. */
  unregisterTool(name: string): void;
  /**
   * Subscribes the plugin to an event type on the runtime's bus; refused
   * without `events:listener`. Returns the unsubscribe function.
   */
  subscribe(type: string, handler: (payload: unknown) => void): () => void;
  /**
   * Publishes an event under the plugin's own namespace: `name` goes on the
   * bus as `module:<plugin>:<name>`, so a plugin can never emit a documented
   * or another plugin's event.
   */
  publishEvent(name: string, payload: unknown): void;
  /** Calls a tool through the one call path, as `module:<plugin>`. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<ToolCallResult & { errorCode?: string }>;
}

/** Everything a loader needs to load one plugin. */
export interface LoadRequest {
  /** The plugin's row. */
  row: PluginRow;
  /** The parsed manifest. */
  manifest: Manifest;
  /** Absolute path of the entry file (undefined for URL entry points). */
  entryFile: string | undefined;
  /** Effective capabilities (declared minus denied). */
  capabilities: string[];
  /** The person's scoped grants: capability to hosts or commands. */
  grants: Record<string, string[]>;
  /** Deadline for each call and hook, in ms. */
  timeoutMs: number;
  /** The plugin's services. */
  services: PluginServices;
  /**
   * Called when the plugin's boundary dies on its own and the loader gives up
   * on it: the runtime unloads it with status `error`, and with `disable`
   * also disables it until the person enables it again.
   */
  onCrash(reason: string, options?: { disable?: boolean }): void;
  /**
   * Records what the table should say while the loader handles a crash
   * itself: `error` with the reason while it waits to restart, `active`
   * again once it has.
   */
  onStatus(status: "error" | "active", message?: string): void;
  /** The runtime's home layout (where sockets live, and what a sandbox must never reach). */
  home: HomeLayout;
}

/** What middleware learns about the call it sees, beyond the tool's own name. */
export interface MiddlewareCall {
  /** The qualified name, `<plugin>.<tool>`. */
  qualifiedName: string;
  /** The plugin that owns the tool. */
  plugin: string;
  /** Who called. */
  caller: string;
}

/** A loaded plugin, as its loader exposes it to the runtime. */
export interface LoadedPlugin {
  /** The tools it exports. */
  tools: LoadedTool[];
  /** Which lifecycle hooks it has. */
  hooks: ReadonlySet<HookName>;
  /** Runs one lifecycle hook. */
  callHook(name: HookName, signal: AbortSignal): Promise<void>;
  /** Tells the plugin a config value changed (runs `onConfigChange` if it has one). */
  configChanged?(key: string, value: unknown, signal: AbortSignal): Promise<void>;
  /** Delivers one subscribed event (runs `onEvent` if it has one). */
  deliverEvent?(type: string, payload: unknown): void;
  /**
   * Pre-middleware, when the plugin has one. `toolName` is the tool's own name (as in the
   * reference, where names are not namespaced); `call` says whose tool it is. Returns the raw answer.
   */
  preMiddleware?(
    toolName: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    call: MiddlewareCall,
  ): Promise<unknown>;
  /** Post-middleware, when the plugin has one; arguments as for `preMiddleware`. Returns the raw answer. */
  postMiddleware?(
    toolName: string,
    result: ToolCallResult,
    signal: AbortSignal,
    call: MiddlewareCall,
  ): Promise<unknown>;
  /** Releases everything the plugin holds (Worker, process, connection). */
  unload(): Promise<void>;
  /** What the boundary looks like now (a process id, restarts, state), for listings. */
  describe?(): Record<string, unknown>;
}

/** A loader. */
export interface Loader {
  /** A short name for messages, such as `esm-in-process`. */
  readonly name: string;
  /** Loads a plugin; throws a CortexError with a clear code when it cannot. */
  load(request: LoadRequest): Promise<LoadedPlugin>;
  /**
   * Checks a plugin's code at install, before anything is recorded, where the
   * kind allows a check without running the plugin's own logic (a WASM module's
   * exports, imports and ABI version). Throws a CortexError naming the problem.
   */
  check?(manifest: Manifest, entryFile: string | undefined): Promise<void>;
  /** Stops whatever the loader keeps beyond single plugins (shared processes); called by `Runtime.close`. */
  close?(): Promise<void>;
}

/** Re-exported for loaders. */
export type { ToolCallContext, ToolInvoker };

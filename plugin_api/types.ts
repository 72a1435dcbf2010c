/**
 * The types a CortexPrism plugin author sees, exactly as the manifest
 * reference documents them. Plugins import them with
 * `import type { Tool, PluginContext } from "cortex/plugins"`.
 *
 * @module
 */

/** Capabilities a single tool may need; a subset of the manifest's capabilities. */
export type ToolCapability =
  | "fs:read"
  | "fs:write"
  | "fs:list"
  | "fs:edit"
  | "fs:delete"
  | "fs:search"
  | "shell:run"
  | "network:fetch"
  | "db:read"
  | "db:write";

/** One parameter of a tool. */
export interface ToolParam {
  /** Parameter name. */
  name: string;
  /** JSON type of the value. */
  type: "string" | "number" | "boolean" | "object" | "array";
  /** Human-readable description. */
  description: string;
  /** Whether the parameter must be given (default false). */
  required?: boolean;
  /** Allowed values for a string parameter. */
  enum?: string[];
}

/** What a tool is: its name, description, parameters and needed capabilities. */
export interface ToolDefinition {
  /** Tool name, unique within its plugin. */
  name: string;
  /** What the tool does. */
  description: string;
  /** Parameters, turned into the tool's JSON Schema. */
  params: ToolParam[];
  /** Capabilities this tool needs; must be a subset of the manifest's. */
  capabilities: ToolCapability[];
}

/** The result of a tool call. `durationMs` is measured by the runtime. */
export interface ToolCallResult {
  /** The tool's qualified name (`<plugin>.<tool>`), set by the runtime. */
  toolName: string;
  /** Whether the tool succeeded. */
  success: boolean;
  /** The tool's output text. */
  output: string;
  /** Why it failed, when `success` is false. */
  error?: string;
  /** Wall time of the call in milliseconds, measured by the runtime. */
  durationMs: number;
}

/** Who is calling and where, as documented for tools. */
export interface ToolContext {
  /** Current agent session ID. */
  sessionId: string;
  /** Current working directory. */
  workingDir: string;
  /** Agent executing this tool. */
  agentId: string;
  /** Agent workspace root. */
  workspaceDir: string;
  /** Asks the person to approve a command, when the host offers it. */
  approvalGate?: (tool: string, command: string) => Promise<boolean>;
}

/** Key-value persistence scoped to one plugin; survives reloads and restarts. */
export interface PluginStateStore {
  /** The value for `key`, or null. */
  get(key: string): Promise<string | null>;
  /** Stores `value` under `key`. */
  set(key: string, value: string): Promise<void>;
  /** Removes `key`. */
  delete(key: string): Promise<void>;
  /** Every key and value. */
  list(): Promise<Record<string, string>>;
}

/** The plugin's section of `<home>/config.json`. */
export interface PluginConfigStore {
  /** The value for `key` (null when unset); with no key, the whole section. */
  get<T = unknown>(key?: string): Promise<T | null>;
  /** Sets `key` (written atomically; `onConfigChange` is called). */
  set<T = unknown>(key: string, value: T): Promise<void>;
  /** The whole section. */
  getAll(): Promise<Record<string, unknown>>;
}

/** Per-plugin logger; lines go to the plugin's log that `cortex plugins logs` shows. */
export interface PluginLogger {
  /** Logs at info level. */
  info(msg: string): void;
  /** Logs at warn level. */
  warn(msg: string): void;
  /** Logs at error level. */
  error(msg: string): void;
  /** Logs at debug level. */
  debug(msg: string): void;
}

/** Registers and unregisters tools at run time. A plugin only ever touches its own tools. */
export interface HostApi {
  /** Registers a tool owned by this plugin. */
  registerTool(tool: Tool): void;
  /** Unregisters one of this plugin's tools by its short name. */
  unregisterTool(name: string): void;
}

/** What every hook and tool receives. */
export interface PluginContext {
  /** The plugin's name. */
  pluginId: string;
  /** Absolute path of the plugin's code folder. */
  pluginDir: string;
  /** Absolute path of the plugin's data folder (separate from its code). */
  dataDir: string;
  /** Persistent key-value state. */
  state: PluginStateStore;
  /** The plugin's config section. */
  config: PluginConfigStore;
  /** The plugin's logger. */
  logger: PluginLogger;
  /** Tool registration. */
  host: HostApi;
}

/** What `execute` receives: one object that is both ToolContext and PluginContext. */
export type ToolExecutionContext = ToolContext & PluginContext & {
  /** Who called, set by the runtime: `person`, `agent:<id>`, `module:<name>` or `hook`. */
  caller: string;
  /** Aborted when the call's deadline passes or the caller gives up. */
  signal: AbortSignal;
};

/** A tool implementation. */
export interface Tool {
  /** The tool's definition. */
  definition: ToolDefinition;
  /** Runs the tool. */
  execute(
    args: Record<string, unknown>,
    context: ToolExecutionContext,
  ): Promise<ToolCallResult> | ToolCallResult;
}

/** The answer of a pre-middleware. */
export type PreMiddlewareResult =
  | { allowed: true; args?: Record<string, unknown> }
  | { allowed: false; reason?: string };

/** Who and what a middleware sees, beyond the tool's own name. */
export interface MiddlewareCallInfo {
  /** The tool's qualified name, `<plugin>.<tool>`. */
  qualifiedName: string;
  /** The plugin that owns the tool. */
  plugin: string;
  /** Who called: `person`, `agent:<id>`, `module:<name>` or `hook`. */
  caller: string;
}

/**
 * Runs before every tool call; may reject or rewrite arguments. `toolName` is
 * the tool's own name, as in the reference; `call` adds the qualified name.
 */
export type PreMiddleware = (
  toolName: string,
  args: Record<string, unknown>,
  ctx: PluginContext,
  call: MiddlewareCallInfo,
) => Promise<PreMiddlewareResult> | PreMiddlewareResult;

/** Runs after every tool call; may rewrite the result. Arguments as for {@link PreMiddleware}. */
export type PostMiddleware = (
  toolName: string,
  result: ToolCallResult,
  ctx: PluginContext,
  call: MiddlewareCallInfo,
) => Promise<ToolCallResult> | ToolCallResult;

/** A lifecycle hook. */
export type LifecycleHook = (ctx: PluginContext) => Promise<void> | void;

/** What an ESM plugin's entry module may export. Every export is optional. */
export interface PluginModule {
  /** Tool implementations. */
  tools?: Tool[];
  /** Called once when the plugin is first installed. */
  onInstall?: LifecycleHook;
  /** Called when the module is loaded. */
  onLoad?: LifecycleHook;
  /** Called when the plugin becomes active. */
  onActivate?: LifecycleHook;
  /** Called when the plugin begins disabling. */
  onDeactivate?: LifecycleHook;
  /** Called when the module is unloaded. */
  onUnload?: LifecycleHook;
  /** Called once when the plugin is removed. */
  onUninstall?: LifecycleHook;
  /** Called when one of the plugin's config values changes. */
  onConfigChange?: (key: string, value: unknown, ctx: PluginContext) => Promise<void> | void;
  /** Called for each subscribed event (the manifest's `events` field). */
  onEvent?: (type: string, payload: unknown, ctx: PluginContext) => Promise<void> | void;
  /** Pre-execution middleware. */
  preMiddleware?: PreMiddleware;
  /** Post-execution middleware. */
  postMiddleware?: PostMiddleware;
}

/** The ten documented event types and their payloads. */
export interface EventPayloads {
  /** A new agent session begins. */
  "session:start": { sessionId: string };
  /** An agent session ends. */
  "session:end": { sessionId: string };
  /** Before any tool executes. */
  "tool:pre-execute": { toolName: string; args: Record<string, unknown> };
  /** After any tool executes. */
  "tool:post-execute": { toolName: string; result: unknown };
  /** Before an LLM API call. */
  "llm:pre-call": { provider: string; model: string };
  /** After an LLM API call. */
  "llm:post-call": { provider: string; model: string; tokensIn: number; tokensOut: number };
  /** Start of an agent reasoning turn. */
  "agent:turn-start": { sessionId: string; turnId: string };
  /** End of an agent reasoning turn. */
  "agent:turn-end": { sessionId: string; turnId: string; response: string };
  /** A global or plugin config value changes. */
  "config:change": { key: string; value: unknown };
  /** A background daemon's status changes. */
  "daemon:status": { daemon: string; status: "up" | "down" };
}

/** One of the ten documented event types. */
export type EventType = keyof EventPayloads;

/** The documented event types, in the reference's order. */
export const EVENT_TYPES: readonly EventType[] = [
  "session:start",
  "session:end",
  "tool:pre-execute",
  "tool:post-execute",
  "llm:pre-call",
  "llm:post-call",
  "agent:turn-start",
  "agent:turn-end",
  "config:change",
  "daemon:status",
];

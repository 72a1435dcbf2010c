/** A log level a plugin's messages are reported at. */
export type WasmLogLevel = "debug" | "info" | "warn" | "error";

/** The runtime services a WASM plugin reaches through its host imports. */
export interface WasmPluginServices {
  /** A value from the plugin's own config section (`undefined`/`null`: not set). Non-strings reach the plugin as JSON. */
  getConfig(key: string): Promise<unknown>;
  /** A persisted state value, or null when the key has none. */
  getState(key: string): Promise<string | null>;
  /** Persists a state value. */
  setState(key: string, value: string): Promise<void>;
  /** Receives the plugin's `host_log` messages (and the host's warnings about it). */
  log(level: WasmLogLevel, message: string): void;
}

/** How to run one WASM plugin. */
export interface WasmPluginOptions {
  /** The plugin's id, used in log and error messages. */
  pluginId: string;
  /** Limit on linear memory in 64 KiB pages (default 512 = 32 MiB), imported or exported alike. */
  maxMemoryPages?: number;
  /** Deadline of one tool call and of start-up in ms (default 10000). A plugin past it is stopped and restarted. */
  callTimeoutMs?: number;
  /** Whether `host_http_request` may be used at all. */
  allowNetwork: boolean;
  /**
   * Decides which URLs `host_http_request` may reach. When given it replaces
   * the default policy, which refuses loopback, private, link-local and other
   * non-public addresses (after resolving the host name).
   */
  isHostAllowed?: (url: URL) => boolean | Promise<boolean>;
  /** Deadline of one HTTP request in ms (default 10000). */
  httpTimeoutMs?: number;
  /** Largest HTTP response body in bytes (default 1 MiB); larger responses fail. */
  maxHttpResponseBytes?: number;
  /** The services behind state, config and log. */
  services: WasmPluginServices;
}

/** One parameter of a tool, as the plugin's capabilities JSON declares it. */
export interface WasmToolParam {
  /** Parameter name. */
  name: string;
  /** JSON type: string, number, boolean, object or array. */
  type: string;
  /** What the parameter means. */
  description: string;
  /** Whether the caller must pass it. */
  required: boolean;
  /** Allowed values of a string parameter. */
  enum?: string[];
}

/** A tool the plugin offers. */
export interface WasmToolDeclaration {
  /** Tool name, as passed to `plugin_execute_tool`. */
  name: string;
  /** What the tool does. */
  description: string;
  /** Parameters, in declaration order. */
  params: WasmToolParam[];
  /** The parameters as a JSON Schema object. */
  inputSchema: {
    type: "object";
    properties: Record<string, { type: string; description: string; enum?: string[] }>;
    required: string[];
  };
}

/** The result of one tool call. */
export interface WasmToolResult {
  /** Whether the tool succeeded. */
  success: boolean;
  /** The tool's output (empty on failure). */
  output: string;
  /** A plain message saying what went wrong. */
  error?: string;
  /** A stable code for the failure: tool_failed, trap, out_of_bounds, timeout, ... */
  code?: string;
}

/** Options of one call. */
export interface WasmCallOptions {
  /** Cancels the call; the plugin's Worker is restarted if it was running it. */
  signal?: AbortSignal;
  /** This call's deadline in ms, instead of the plugin's `callTimeoutMs`. */
  timeoutMs?: number;
}

/** A running WASM plugin. */
export interface WasmPlugin {
  /** The plugin's id. */
  readonly pluginId: string;
  /** The tools from the plugin's capabilities. */
  readonly tools: WasmToolDeclaration[];
  /** Calls a tool; calls run one at a time in order. */
  callTool(name: string, args: Record<string, unknown>, options?: WasmCallOptions): Promise<WasmToolResult>;
  /** Runs `plugin_destroy` and stops the Worker. */
  close(): Promise<void>;
}

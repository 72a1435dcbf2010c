/**
 * One live connection to an MCP server, for a `kind: "mcp"` plugin.
 *
 * @module
 */
import {
  Client,
  LoggingMessageNotificationSchema,
  McpError,
  ResultSchema,
  StreamableHTTPClientTransport,
  ToolListChangedNotificationSchema,
} from "../_sdk.ts";
import { CortexError } from "../../runtime/errors.ts";
import { ChildProcessTransport } from "./child_process_transport.ts";
import { handshake, type Handshaken, type McpWire } from "./handshake.ts";
import { mapMcpError, serverMessage } from "./map_error.ts";
import type { McpServerSpec } from "./spec.ts";
import { type McpToolInfo, toToolInfo } from "./tool_info.ts";
import { type McpCallResult, toCallResult } from "./tool_result.ts";

/** Options for {@link McpConnection.connect}. */
export interface McpConnectOptions {
  /** The default deadline of every request, in milliseconds. */
  requestTimeoutMs: number;
  /** The deadline for starting the server and answering `initialize`. */
  initTimeoutMs: number;
  /** Receives the server's stderr lines and its `notifications/message` logs. */
  onLog(line: string): void;
  /** Called when the server sends `notifications/tools/list_changed`. */
  onToolsChanged(): void;
  /** Called once when the server goes away (process exit, session end) or `close()` is called. */
  onClose?(): void;
  /** The name sent as `clientInfo.name` (default `cortex`). */
  clientName?: string;
  /** The version sent as `clientInfo.version` (default `0.1.0`). */
  clientVersion?: string;
  /** The cap on a tool result's text, in characters (default 1 MiB). */
  maxOutput?: number;
}

/** Per-request options. */
export interface McpRequestOptions {
  /** Overrides the connection's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Abandons the request (and sends `notifications/cancelled`) when aborted. */
  signal?: AbortSignal;
}

const MAX_LOG_LINE = 4096;
const MAX_TOOL_PAGES = 100;

/**
 * A connected MCP server. Every request has a deadline; one that is abandoned
 * (deadline or `signal`) sends `notifications/cancelled` to the server.
 *
 * @example
 * ```ts
 * import { McpConnection } from "./connection.ts";
 * const mcp = await McpConnection.connect(
 *   { transport: "stdio", command: "deno", args: ["run", "server.ts"], env: {} },
 *   { requestTimeoutMs: 30_000, initTimeoutMs: 10_000, onLog: console.error, onToolsChanged: () => {} },
 * );
 * const tools = await mcp.listTools();
 * const result = await mcp.callTool("echo", { message: "hi" });
 * await mcp.close();
 * ```
 */
export class McpConnection {
  /** The server's `serverInfo` from `initialize`. */
  readonly serverInfo: { name: string; version: string };
  /** Which wire the connection uses. */
  readonly wire: McpWire;

  #client: Client;
  #transport: Handshaken["transport"];
  #options: McpConnectOptions;
  #closed = false;

  private constructor(connected: Handshaken, options: McpConnectOptions) {
    this.#client = connected.client;
    this.#transport = connected.transport;
    this.wire = connected.wire;
    this.#options = options;
    const info = connected.client.getServerVersion();
    this.serverInfo = { name: String(info?.name ?? "unknown"), version: String(info?.version ?? "unknown") };
  }

  /**
   * Starts or reaches the server and completes the `initialize` handshake.
   * Throws `mcp_init_timeout` when the server does not answer in time.
   */
  static async connect(spec: McpServerSpec, options: McpConnectOptions): Promise<McpConnection> {
    // The SDK client's handlers are set before the connection object exists.
    const made: { connection?: McpConnection } = {};
    const newClient = () => {
      const client = new Client(
        { name: options.clientName ?? "cortex", version: options.clientVersion ?? "0.1.0" },
        { capabilities: {} },
      );
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolsChanged());
      client.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
        const { level, logger, data } = note.params;
        const text = typeof data === "string" ? data : JSON.stringify(data);
        options.onLog(capLine(`[${level}]${logger ? ` ${logger}:` : ""} ${text}`));
      });
      client.onerror = (error) => {
        const connection = made.connection;
        if (connection?.closed) return;
        // With resumption off (see handshake.ts) this is how the SDK says a stream was lost.
        if (connection && /Maximum reconnection attempts/.test(error.message)) {
          options.onLog("mcp client: the server's event stream ended; the connection is closed");
          void connection.close();
          return;
        }
        options.onLog(capLine(`mcp client: ${error.message}`));
      };
      client.onclose = () => {
        if (made.connection) made.connection.#markClosed();
      };
      return client;
    };
    const connected = await handshake(spec, {
      initTimeoutMs: options.initTimeoutMs,
      newClient,
      onStderrLine: options.onLog,
    });
    made.connection = new McpConnection(connected, options);
    return made.connection;
  }

  /** True once the server went away or `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The server's process id, for a stdio server. */
  get pid(): number | undefined {
    return this.#transport instanceof ChildProcessTransport ? this.#transport.pid : undefined;
  }

  /** Lists every tool (following pagination); tools that fail the checks are logged and left out. */
  async listTools(options: McpRequestOptions = {}): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await this.#run(
        (sdk) => this.#client.listTools(cursor === undefined ? {} : { cursor }, sdk),
        options,
      );
      for (const raw of result.tools) {
        const { tool, reason } = toToolInfo(raw);
        if (tool) tools.push(tool);
        else this.#options.onLog(`skipped a tool: ${reason}`);
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /**
   * Calls a tool. A JSON-RPC error from the server (unknown tool, bad
   * arguments, output that fails the tool's output schema) is a result with
   * `success: false`; a deadline, a cancel or a dead server throws.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpRequestOptions = {},
  ): Promise<McpCallResult> {
    try {
      const result = await this.#run(
        (sdk) => this.#client.callTool({ name, arguments: args }, undefined, sdk),
        options,
      );
      return toCallResult(result, { maxOutput: this.#options.maxOutput });
    } catch (error) {
      const cause = error instanceof CortexError ? error.cause : error;
      if (error instanceof CortexError && error.code === "mcp_error" && cause instanceof McpError) {
        const message = serverMessage(cause);
        return { success: false, output: "", error: message, raw: { code: cause.code, message } };
      }
      throw error;
    }
  }

  /**
   * Sends any request and returns the server's result object, for the
   * synthetic `mcp_<pluginName>` tool (`{ method, params }`).
   */
  async request(method: string, params: unknown, options: McpRequestOptions = {}): Promise<unknown> {
    if (method === "initialize" || method.startsWith("notifications/")) {
      throw new CortexError("mcp_bad_method", `${method} cannot be sent as a request through this tool`);
    }
    if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
      throw new CortexError("mcp_bad_method", "params must be an object");
    }
    const body = { method, params: params as Record<string, unknown> | undefined };
    return await this.#run((sdk) => this.#client.request(body, ResultSchema, sdk), options);
  }

  /** Ends the session: a stdio server is asked to exit (then killed), an HTTP session is deleted. */
  async close(): Promise<void> {
    const wasOpen = !this.#closed;
    this.#markClosed();
    if (this.#transport instanceof StreamableHTTPClientTransport && wasOpen) {
      await withinMs(this.#transport.terminateSession(), 1000);
    }
    await this.#client.close().catch(() => {});
  }

  async #run<T>(
    send: (sdk: { timeout: number; signal?: AbortSignal }) => Promise<T>,
    options: McpRequestOptions,
  ): Promise<T> {
    if (this.#closed) throw new CortexError("mcp_connection_closed", "the MCP server connection is closed");
    const timeout = options.timeoutMs ?? this.#options.requestTimeoutMs;
    const caller = options.signal;
    // The SDK never removes its abort listener, so a caller's signal is relayed
    // through one of our own per request (and none is made when there is none).
    const local = caller ? new AbortController() : undefined;
    const relay = () => local?.abort(caller?.reason);
    if (caller?.aborted) relay();
    caller?.addEventListener("abort", relay, { once: true });
    try {
      return await send({ timeout, signal: local?.signal });
    } catch (error) {
      const mapped = mapMcpError(error, { signal: local?.signal });
      if (mapped.code === "mcp_connection_closed") await this.close();
      throw mapped;
    } finally {
      caller?.removeEventListener("abort", relay);
    }
  }

  #markClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#options.onClose?.();
  }
}

function capLine(line: string): string {
  return line.length > MAX_LOG_LINE ? `${line.slice(0, MAX_LOG_LINE)} [truncated]` : line;
}

async function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise.catch(() => {}), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

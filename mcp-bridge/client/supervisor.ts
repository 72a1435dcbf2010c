/**
 * Keeps one MCP server available: connects lazily, and after the server dies
 * reconnects on the next call, backing off while it keeps failing.
 *
 * @module
 */
import { CortexError } from "../../runtime/errors.ts";
import { McpConnection, type McpConnectOptions, type McpRequestOptions } from "./connection.ts";
import type { McpServerSpec } from "./spec.ts";
import type { McpToolInfo } from "./tool_info.ts";
import type { McpCallResult } from "./tool_result.ts";

/** Options for {@link McpSupervisor}. */
export interface McpSupervisorOptions extends Omit<McpConnectOptions, "onClose"> {
  /** The wait after the second failure in a row; it doubles with each further one (default 250 ms). */
  initialBackoffMs?: number;
  /** The longest wait between attempts (default 30 s). */
  maxBackoffMs?: number;
  /** Called when a live connection is lost (the server exited or its session ended). */
  onDown?(): void;
}

/** Where the supervisor stands. */
export type McpSupervisorState = "idle" | "connected" | "down" | "closed";

/**
 * A self-healing {@link McpConnection}. The first failure is retried on the
 * very next call; after that each call inside the backoff window fails fast
 * with `mcp_server_down` instead of waiting. A call that was in flight when
 * the server died is not replayed (it may not be idempotent).
 *
 * @example
 * ```ts
 * import { McpSupervisor } from "./supervisor.ts";
 * const mcp = new McpSupervisor(
 *   { transport: "stdio", command: "deno", args: ["run", "server.ts"], env: {} },
 *   { requestTimeoutMs: 30_000, initTimeoutMs: 10_000, onLog: console.error, onToolsChanged: () => {} },
 * );
 * await mcp.callTool("echo", { message: "hi" }); // connects first
 * await mcp.close();
 * ```
 */
export class McpSupervisor {
  #spec: McpServerSpec;
  #options: McpSupervisorOptions;
  #current?: McpConnection;
  #connecting?: Promise<McpConnection>;
  #failures = 0;
  #retryAt = 0;
  #connections = 0;
  #closed = false;

  /** Prepares the supervisor; nothing starts until the first call. */
  constructor(spec: McpServerSpec, options: McpSupervisorOptions) {
    this.#spec = spec;
    this.#options = options;
  }

  /** `idle` before the first connection, `connected`, `down` after a loss, `closed` after `close()`. */
  get state(): McpSupervisorState {
    if (this.#closed) return "closed";
    if (this.#current && !this.#current.closed) return "connected";
    return this.#connections === 0 && this.#failures === 0 ? "idle" : "down";
  }

  /** How many times a new connection replaced a lost one. */
  get restarts(): number {
    return Math.max(0, this.#connections - 1);
  }

  /** The live connection, connecting (or reconnecting) first if needed. */
  async connection(): Promise<McpConnection> {
    if (this.#closed) throw new CortexError("mcp_connection_closed", "the MCP supervisor is closed");
    if (this.#current && !this.#current.closed) return this.#current;
    if (this.#connecting) return await this.#connecting;
    const wait = this.#retryAt - Date.now();
    if (wait > 0) {
      throw new CortexError(
        "mcp_server_down",
        `the MCP server is down; the next restart is allowed in ${wait} ms`,
      );
    }
    this.#connecting = this.#connect();
    try {
      return await this.#connecting;
    } finally {
      this.#connecting = undefined;
    }
  }

  /** Lists the server's tools. */
  async listTools(options?: McpRequestOptions): Promise<McpToolInfo[]> {
    const connection = await this.connection();
    return this.#succeeded(await connection.listTools(options));
  }

  /** Calls one tool; see {@link McpConnection.callTool}. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options?: McpRequestOptions,
  ): Promise<McpCallResult> {
    const connection = await this.connection();
    return this.#succeeded(await connection.callTool(name, args, options));
  }

  /** Sends a raw request; see {@link McpConnection.request}. */
  async request(method: string, params: unknown, options?: McpRequestOptions): Promise<unknown> {
    const connection = await this.connection();
    return this.#succeeded(await connection.request(method, params, options));
  }

  /** Closes the connection for good. */
  async close(): Promise<void> {
    this.#closed = true;
    const connecting = this.#connecting;
    if (connecting) await connecting.then((c) => c.close(), () => {});
    await this.#current?.close();
  }

  async #connect(): Promise<McpConnection> {
    try {
      const connection = await McpConnection.connect(this.#spec, {
        ...this.#options,
        onClose: () => this.#lost(connection),
      });
      if (this.#closed) {
        await connection.close();
        throw new CortexError("mcp_connection_closed", "the MCP supervisor is closed");
      }
      this.#current = connection;
      this.#connections++;
      // A restarted server may list different tools than the one that died.
      if (this.#connections > 1) this.#options.onToolsChanged();
      return connection;
    } catch (error) {
      this.#failed();
      throw error;
    }
  }

  #lost(connection: McpConnection): void {
    if (this.#closed || connection !== this.#current) return;
    this.#failed();
    this.#options.onDown?.();
  }

  #failed(): void {
    this.#failures++;
    const initial = this.#options.initialBackoffMs ?? 250;
    const max = this.#options.maxBackoffMs ?? 30_000;
    const delay = this.#failures <= 1 ? 0 : Math.min(max, initial * 2 ** (this.#failures - 2));
    this.#retryAt = Date.now() + delay;
  }

  #succeeded<T>(value: T): T {
    this.#failures = 0;
    return value;
  }
}

/**
 * Opens a transport for a spec and runs the `initialize` handshake under one
 * deadline, falling back from Streamable HTTP to HTTP+SSE the way the MCP
 * specification's backwards-compatibility section describes.
 *
 * @module
 */
import {
  type Client,
  ErrorCode,
  McpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  StreamableHTTPError,
  type Transport,
} from "../_sdk.ts";
import { CortexError } from "../../runtime/errors.ts";
import { ChildProcessTransport } from "./child_process_transport.ts";
import { mapMcpError } from "./map_error.ts";
import type { McpServerSpec } from "./spec.ts";

/** Which wire the connection ended up on. */
export type McpWire = "stdio" | "streamable-http" | "sse";

/** A connected client and its transport. */
export interface Handshaken {
  /** The initialized SDK client. */
  client: Client;
  /** The transport under it. */
  transport: Transport;
  /** Which wire it is. */
  wire: McpWire;
}

/** What the handshake needs. */
export interface HandshakeOptions {
  /** The deadline for spawning or reaching the server and answering `initialize`. */
  initTimeoutMs: number;
  /** Makes a fresh SDK client with its handlers set (a failed client cannot be reused). */
  newClient: () => Client;
  /** Receives each stderr line of a stdio server. */
  onStderrLine: (line: string) => void;
}

/**
 * Connects to the server a spec names and completes `initialize`.
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { handshake } from "./handshake.ts";
 * const { client } = await handshake({ transport: "http", url: "http://127.0.0.1:3001/mcp" }, {
 *   initTimeoutMs: 5000,
 *   newClient: () => new Client({ name: "cortex", version: "0.1.0" }),
 *   onStderrLine: () => {},
 * });
 * ```
 */
export async function handshake(spec: McpServerSpec, options: HandshakeOptions): Promise<Handshaken> {
  if (spec.transport === "stdio") {
    const transport = new ChildProcessTransport(spec, { onStderrLine: options.onStderrLine });
    return await initialize(options.newClient(), transport, "stdio", options.initTimeoutMs);
  }
  const url = new URL(spec.url);
  const requestInit: RequestInit = spec.headers ? { headers: spec.headers } : {};
  const started = Date.now();
  try {
    // The SDK's stream resumption keeps retry timers alive past close(); a dropped
    // stream instead ends the connection, and the supervisor reconnects on the next call.
    const reconnectionOptions = {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    };
    const transport = new StreamableHTTPClientTransport(url, { requestInit, reconnectionOptions });
    return await initialize(options.newClient(), transport, "streamable-http", options.initTimeoutMs);
  } catch (error) {
    if (!isLegacyServerAnswer(error)) throw error;
  }
  // The older transport answers a POST to its SSE endpoint with a 4xx; retry on it.
  const remaining = Math.max(1, options.initTimeoutMs - (Date.now() - started));
  const transport = new SSEClientTransport(url, { requestInit });
  return await initialize(options.newClient(), transport, "sse", remaining);
}

async function initialize(
  client: Client,
  transport: Transport,
  wire: McpWire,
  initTimeoutMs: number,
): Promise<Handshaken> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new CortexError(
          "mcp_init_timeout",
          `the MCP server did not answer initialize within ${initTimeoutMs} ms`,
        ),
      );
    }, initTimeoutMs);
  });
  // The SDK's own timeout is a backstop only: the race below decides.
  const connecting = client.connect(transport, { timeout: initTimeoutMs * 2 });
  try {
    await Promise.race([connecting, deadline]);
    return { client, transport, wire };
  } catch (error) {
    // A transport stuck in start() (an SSE stream that never names its endpoint) never settles.
    connecting.catch(() => {});
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    throw initError(error);
  } finally {
    clearTimeout(timer);
  }
}

function initError(error: unknown): CortexError {
  if (error instanceof CortexError) return error;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new CortexError("mcp_init_timeout", "the MCP server did not answer initialize in time", {
      cause: error,
    });
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return new CortexError(
      "mcp_init_failed",
      "the MCP server closed the connection during initialize (see its log)",
      {
        cause: error,
      },
    );
  }
  const mapped = mapMcpError(error);
  if (mapped.code === "mcp_unauthorized") return mapped;
  if (error instanceof StreamableHTTPError || error instanceof TypeError) {
    return new CortexError("mcp_init_failed", `the MCP server could not be reached: ${mapped.message}`, {
      cause: error,
    });
  }
  const reason = error instanceof Error ? error.message.slice(0, 200) : "unknown failure";
  return new CortexError("mcp_init_failed", `the MCP handshake failed: ${reason}`, { cause: error });
}

function isLegacyServerAnswer(error: unknown): boolean {
  const cause = error instanceof CortexError ? error.cause : error;
  if (!(cause instanceof StreamableHTTPError)) return false;
  const status = cause.code ?? 0;
  return status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/**
 * Serves the runtime over MCP on stdin and stdout (`cortex mcp serve`).
 *
 * @module
 */
import { createMcpServer, type McpServerOptions } from "./create_mcp_server.ts";
import { StreamServerTransport, type StreamTransportOptions } from "./stream_transport.ts";
import type { ToolSource } from "./tool_source.ts";

/** A running stdio MCP server. */
export interface McpStdioServer {
  /** Resolves when the session ends (the agent closed stdin, or `close()`). */
  readonly done: Promise<void>;
  /** Ends the session. */
  close(): Promise<void>;
}

/**
 * Serves `source` as an MCP server over the process's stdin and stdout (or
 * the given streams). Nothing else may write to stdout meanwhile: log to stderr.
 *
 * @example
 * ```ts
 * import { serveMcpStdio } from "./serve_stdio.ts";
 * import type { ToolSource } from "./tool_source.ts";
 * declare const source: ToolSource;
 * const served = await serveMcpStdio(source, { name: "cortex", version: "0.1.0" });
 * await served.done;
 * ```
 */
export async function serveMcpStdio(
  source: ToolSource,
  options: McpServerOptions & StreamTransportOptions,
): Promise<McpStdioServer> {
  const server = createMcpServer(source, options);
  const transport = new StreamServerTransport(options);
  const unsubscribe = server.onclose;
  const { promise: done, resolve } = Promise.withResolvers<void>();
  server.onclose = () => {
    unsubscribe?.();
    resolve();
  };
  await server.connect(transport);
  return { done, close: () => server.close() };
}

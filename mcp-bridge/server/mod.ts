/**
 * The runtime as an MCP server, over stdio (`cortex mcp serve`) or Streamable
 * HTTP (mounted at `/mcp` in the daemon). The core plugs in through one
 * small interface, {@link ToolSource}.
 *
 * @example
 * ```ts
 * import { mcpHttpHandler, serveMcpStdio, type ToolSource } from "./mod.ts";
 *
 * declare const source: ToolSource; // the core's registry and call path
 * // stdio:
 * const served = await serveMcpStdio(source, { name: "cortex", version: "0.1.0" });
 * await served.done;
 * // HTTP, in a hono app:
 * const mcp = mcpHttpHandler(source, { name: "cortex", version: "0.1.0", token: "s3cret" });
 * // app.all("/mcp", (c) => mcp(c.req.raw));
 * ```
 *
 * @module
 */
export type { SourceCallResult, SourceTool, ToolCaller, ToolSource } from "./tool_source.ts";
export { callerLabel, CAPABILITIES_URI, type McpServerOptions } from "./create_mcp_server.ts";
export { type McpStdioServer, serveMcpStdio } from "./serve_stdio.ts";
export { type McpHttpHandler, mcpHttpHandler, type McpHttpOptions } from "./http_handler.ts";
export { bearerMatches, originAllowed } from "./request_guard.ts";
export type { StreamTransportOptions } from "./stream_transport.ts";

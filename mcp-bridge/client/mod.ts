/**
 * The MCP client for `kind: "mcp"` plugins: read the manifest into a server
 * spec, connect over stdio or Streamable HTTP (falling back to HTTP+SSE),
 * list and call tools with deadlines and cancels, and restart a dead server.
 *
 * @example
 * ```ts
 * import { McpSupervisor, parseMcpEntryPoint } from "./mod.ts";
 *
 * const spec = parseMcpEntryPoint(
 *   { entryPoint: "npm:@modelcontextprotocol/server-everything@2026.8.31", mcp: { args: ["stdio"] } },
 *   { pluginDir: "/home/me/.cortex/data/plugins/everything" },
 * );
 * const mcp = new McpSupervisor(spec, {
 *   requestTimeoutMs: 30_000,
 *   initTimeoutMs: 10_000,
 *   onLog: (line) => console.error(line),
 *   onToolsChanged: () => {},
 * });
 * const tools = await mcp.listTools();
 * const result = await mcp.callTool("echo", { message: "hi" }); // { success: true, output: "Echo: hi", raw }
 * await mcp.close();
 * ```
 *
 * @module
 */
export type { McpHttpSpec, McpServerSpec, McpStdioSpec } from "./spec.ts";
export {
  type McpManifestFields,
  parseMcpEntryPoint,
  type ParseMcpEntryPointOptions,
} from "./parse_entry_point.ts";
export { denoPermissionFlags, type DenoPermissionOptions } from "./deno_permission_flags.ts";
export { denoDir } from "./deno_dir.ts";
export { McpConnection, type McpConnectOptions, type McpRequestOptions } from "./connection.ts";
export type { McpWire } from "./handshake.ts";
export { McpSupervisor, type McpSupervisorOptions, type McpSupervisorState } from "./supervisor.ts";
export type { McpToolInfo } from "./tool_info.ts";
export type { McpCallResult } from "./tool_result.ts";
